// REAL-local's check-in / check-out picker (MarriSuite, StayNB), as Marriott's and Airbnb's: clicking either date
// opens a two-month calendar on today's month (or the chosen date's), today outlined, past days disabled; a click
// picks check-in, then check-out, the stay's nights shaded between. The fields also take a typed date (2024-07-26,
// 07/26/2024, Jul 26, 2024, Fri, Jul 26, 2024); the search sends YYYY-MM-DD. A site calls
// ``RealLocalRangePicker(form, {weekday, wrapper})`` on its search form (``data-today``, ``[data-date=in|out]``):
// ``weekday`` shows "Fri, Jul 26, 2024" (else "Jul 26, 2024"), ``wrapper`` is the selector of the field's box the
// calendar opens under. Served by every site at /_spa/rangepicker.js (real_local.core).
window.RealLocalRangePicker = function (form, opts) {
  if (!form) return;
  opts = Object.assign({ weekday: false, wrapper: 'label' }, opts || {});
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
    'November', 'December'];
  const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const fields = { in: form.querySelector('[data-date=in]'), out: form.querySelector('[data-date=out]') };
  if (!fields.in || !fields.out) return;

  const make = (y, m, d) => {
    const t = new Date(y, m - 1, d, 12);
    return t.getFullYear() === y && t.getMonth() === m - 1 && t.getDate() === d ? t : null;
  };
  const iso = (t) => `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
  const show = (t) => `${opts.weekday ? `${DAYS[t.getDay()].slice(0, 3)}, ` : ''}${MONTHS[t.getMonth()].slice(0, 3)} ${t.getDate()}, ${t.getFullYear()}`;
  const full = (t) => `${DAYS[t.getDay()]}, ${MONTHS[t.getMonth()]} ${t.getDate()}, ${t.getFullYear()}`;

  function parse(v) {
    v = (v || '').toLowerCase().replace(/,/g, ' ').trim().split(/\s+/).join(' ');
    let m = v.match(/^(\d{4})-(\d{2})-(\d{2})$/);
    if (m) return make(+m[1], +m[2], +m[3]);
    m = v.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
    if (m) return make(+m[3], +m[1], +m[2]);
    const words = v.split(' ').filter((w) => !DAYS.some((d) => d.slice(0, 3).toLowerCase() === w.slice(0, 3)));
    if (words.length !== 3 || words[0].length < 3 || !/^\d{1,2}$/.test(words[1]) || !/^\d{4}$/.test(words[2])) {
      return null;
    }
    const mon = MONTHS.findIndex((n) => n.toLowerCase().startsWith(words[0]));
    return mon < 0 ? null : make(+words[2], mon + 1, +words[1]);
  }

  const today = parse(form.dataset.today);
  let mode = 'in';
  let view = null;  // the first month shown: a Date on its 1st
  const cal = document.createElement('div');
  cal.className = 'cal';
  cal.hidden = true;
  cal.setAttribute('role', 'dialog');
  cal.setAttribute('aria-label', 'Choose dates');
  form.appendChild(cal);

  const chosen = (k) => parse(fields[k].value);
  const monthOf = (t) => new Date(t.getFullYear(), t.getMonth(), 1, 12);
  const addMonths = (t, n) => new Date(t.getFullYear(), t.getMonth() + n, 1, 12);

  function button(label, text, onclick, cls) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('aria-label', label);
    if (cls) b.className = cls;
    b.addEventListener('click', onclick);
    return b;
  }

  function month(first) {
    const box = document.createElement('div');
    box.className = 'cal-month';
    const h = document.createElement('h3');
    h.textContent = `${MONTHS[first.getMonth()]} ${first.getFullYear()}`;
    box.appendChild(h);
    const grid = document.createElement('div');
    grid.className = 'cal-grid';
    for (const d of DAYS) {
      const s = document.createElement('span');
      s.className = 'dow';
      s.textContent = d.slice(0, 2);
      s.setAttribute('aria-hidden', 'true');
      grid.appendChild(s);
    }
    for (let i = 0; i < first.getDay(); i++) grid.appendChild(document.createElement('span'));
    const a = chosen('in'), b = chosen('out');
    for (let d = 1; ; d++) {
      const t = make(first.getFullYear(), first.getMonth() + 1, d);
      if (!t) break;
      const cls = [];
      if (iso(t) === iso(today)) cls.push('today');
      if ((a && iso(t) === iso(a)) || (b && iso(t) === iso(b))) cls.push('sel');
      else if (a && b && t > a && t < b) cls.push('inrange');
      const btn = button(full(t), String(d), () => pick(t), cls.join(' '));
      if (t < today) btn.disabled = true;
      if (iso(t) === iso(today)) btn.setAttribute('aria-current', 'date');
      if (cls.includes('sel')) btn.setAttribute('aria-pressed', 'true');
      grid.appendChild(btn);
    }
    box.appendChild(grid);
    return box;
  }

  function render() {
    cal.textContent = '';
    const head = document.createElement('div');
    head.className = 'cal-head';
    const prev = button('Previous month', '\u2039', () => { view = addMonths(view, -1); render(); });
    prev.disabled = view <= monthOf(today);
    head.append(prev, button('Next month', '\u203a', () => { view = addMonths(view, 1); render(); }));
    const months = document.createElement('div');
    months.className = 'cal-months';
    months.append(month(view), month(addMonths(view, 1)));
    const foot = document.createElement('div');
    foot.className = 'cal-foot';
    const a = chosen('in'), b = chosen('out');
    const note = document.createElement('span');
    note.textContent = a && b ? `${Math.round((b - a) / 864e5)} night${Math.round((b - a) / 864e5) === 1 ? '' : 's'}`
      : `Select your ${mode === 'in' ? 'check-in' : 'check-out'} date`;
    const clear = button('Clear dates', 'Clear dates', () => {
      fields.in.value = ''; fields.out.value = ''; mode = 'in'; render(); fields.in.focus();
    });
    foot.append(note, clear);
    cal.append(head, months, foot);
  }

  function open(k) {
    mode = k;
    const t = chosen(k) || chosen('in') || today;
    if (cal.hidden || !view || t < view || t >= addMonths(view, 2)) view = monthOf(t < today ? today : t);
    cal.hidden = false;
    cal.style.left = `${fields.in.closest(opts.wrapper).offsetLeft}px`;  // under the dates (the form is their offsetParent)
    render();
  }

  function close() { cal.hidden = true; }

  function pick(t) {
    const a = chosen('in');
    if (mode === 'in' || !a || t <= a) {
      fields.in.value = show(t);
      const b = chosen('out');
      if (b && b <= t) fields.out.value = '';
      mode = 'out';
      render();
      fields.out.focus();
      return;
    }
    fields.out.value = show(t);
    render();
    close();
  }

  for (const k of ['in', 'out']) {
    const f = fields[k];
    f.addEventListener('focus', () => open(k));
    f.addEventListener('click', () => { if (cal.hidden || mode !== k) open(k); });
    f.addEventListener('input', () => {
      const t = parse(f.value);
      if (t && !cal.hidden) { view = monthOf(t < today ? today : t); render(); }
    });
    f.addEventListener('keydown', (e) => { if (e.key === 'Escape') close(); });
  }
  const inside = (el) => el === fields.in || el === fields.out || cal.contains(el);
  document.addEventListener('mousedown', (e) => { if (!cal.hidden && !inside(e.target)) close(); });
  document.addEventListener('focusin', (e) => { if (!cal.hidden && !inside(e.target)) close(); });
  form.addEventListener('submit', () => {
    close();
    for (const f of [fields.in, fields.out]) {
      const t = parse(f.value);
      if (t) f.value = iso(t);
    }
  });
};

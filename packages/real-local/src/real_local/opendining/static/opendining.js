// OpenDining's date picker, as OpenTable's: clicking a Date field opens a one-month calendar on today's month (or the
// chosen date's), today outlined, past days disabled; a click picks the day and closes it. The field also takes a
// typed date (2024-07-26, 07/26/2024, Jul 26, 2024, Fri, Jul 26, 2024); the form sends YYYY-MM-DD.
(() => {
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
    'November', 'December'];
  const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const make = (y, m, d) => {
    const t = new Date(y, m - 1, d, 12);
    return t.getFullYear() === y && t.getMonth() === m - 1 && t.getDate() === d ? t : null;
  };
  const iso = (t) => `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
  const show = (t) => `${MONTHS[t.getMonth()].slice(0, 3)} ${t.getDate()}, ${t.getFullYear()}`;
  const full = (t) => `${DAYS[t.getDay()]}, ${MONTHS[t.getMonth()]} ${t.getDate()}, ${t.getFullYear()}`;
  const monthOf = (t) => new Date(t.getFullYear(), t.getMonth(), 1, 12);
  const addMonths = (t, n) => new Date(t.getFullYear(), t.getMonth() + n, 1, 12);

  function parse(v) {
    v = (v || '').toLowerCase().replace(/,/g, ' ').trim().split(/\s+/).join(' ');
    let m = v.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/);
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

  function button(label, text, onclick, cls) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('aria-label', label);
    if (cls) b.className = cls;
    b.addEventListener('click', onclick);
    return b;
  }

  function picker(field) {
    const today = parse(field.dataset.today);
    const box = field.closest('.datefield');
    if (!today || !box) return;
    let view = null;
    const cal = document.createElement('div');
    cal.className = 'cal';
    cal.hidden = true;
    cal.setAttribute('role', 'dialog');
    cal.setAttribute('aria-label', 'Choose a date');
    box.appendChild(cal);

    function render() {
      cal.textContent = '';
      const head = document.createElement('div');
      head.className = 'cal-head';
      const prev = button('Previous month', '\u2039', () => { view = addMonths(view, -1); render(); });
      prev.disabled = view <= monthOf(today);
      const title = document.createElement('h3');
      title.textContent = `${MONTHS[view.getMonth()]} ${view.getFullYear()}`;
      head.append(prev, title, button('Next month', '\u203a', () => { view = addMonths(view, 1); render(); }));
      const grid = document.createElement('div');
      grid.className = 'cal-grid';
      for (const d of DAYS) {
        const s = document.createElement('span');
        s.className = 'dow';
        s.textContent = d.slice(0, 2);
        s.setAttribute('aria-hidden', 'true');
        grid.appendChild(s);
      }
      for (let i = 0; i < view.getDay(); i++) grid.appendChild(document.createElement('span'));
      const sel = parse(field.value);
      for (let d = 1; ; d++) {
        const t = make(view.getFullYear(), view.getMonth() + 1, d);
        if (!t) break;
        const cls = [];
        if (iso(t) === iso(today)) cls.push('today');
        if (sel && iso(t) === iso(sel)) cls.push('sel');
        const b = button(full(t), String(d), () => pick(t), cls.join(' '));
        if (t < today) b.disabled = true;
        if (iso(t) === iso(today)) b.setAttribute('aria-current', 'date');
        if (cls.includes('sel')) b.setAttribute('aria-pressed', 'true');
        grid.appendChild(b);
      }
      cal.append(head, grid);
    }

    function open() {
      const t = parse(field.value) || today;
      if (cal.hidden || !view) view = monthOf(t < today ? today : t);
      cal.hidden = false;
      render();
    }
    const close = () => { cal.hidden = true; };
    function pick(t) {
      field.value = show(t);
      field.dispatchEvent(new Event('change', { bubbles: true }));
      close();
    }

    field.addEventListener('click', () => { if (cal.hidden) open(); });
    field.addEventListener('focus', open);
    field.addEventListener('input', () => {
      const t = parse(field.value);
      if (t && !cal.hidden) { view = monthOf(t < today ? today : t); render(); }
    });
    field.addEventListener('keydown', (e) => { if (e.key === 'Escape' || e.key === 'Tab') close(); });
    const inside = (el) => el === field || cal.contains(el);
    document.addEventListener('mousedown', (e) => { if (!cal.hidden && !inside(e.target)) close(); });
    document.addEventListener('focusin', (e) => { if (!cal.hidden && !inside(e.target)) close(); });
    field.form.addEventListener('submit', () => {
      close();
      const t = parse(field.value);
      if (t) field.value = iso(t);
    });
  }

  document.querySelectorAll('input[data-today]').forEach(picker);
})();

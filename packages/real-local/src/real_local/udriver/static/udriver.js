// UDriver's ride form, as Uber's: the location fields suggest places as you type (a list under the field; a click, or
// the arrow keys and Enter, picks one: the field shows its name and the form sends its id); the Suggestions panel
// fills the location field you were in if empty, else the first empty one, else the drop-off; the pickup date opens a
// calendar on today's month beside the form (past days and days over 30 ahead disabled) and also takes a typed date
// (7/26/2024, 2024-07-26, Jul 26, 2024). The list closes when another field takes the focus, or after a click
// elsewhere has landed (never between its press and release, so the click lands where it was aimed).
(() => {
  const form = document.querySelector('form.rideform');
  const data = document.getElementById('places');
  if (!form || !data) return;
  const PLACES = JSON.parse(data.textContent);
  const byId = new Map(PLACES.map((p) => [String(p.id), p]));
  const fields = Array.from(form.querySelectorAll('input[data-place]'));
  const idOf = (f) => form.querySelector(`input[name=${f.dataset.place}Id]`);
  const listOf = (f) => document.getElementById(`${f.dataset.place}-list`);
  let last = null;

  const words = (s) => s.toLowerCase().replace(/[&,./()'-]/g, ' ').split(/\s+/).filter(Boolean)
    .map((w) => (/^\d+(st|nd|rd|th)$/.test(w) ? w.replace(/\D+$/, '') : w));
  function matches(text) {
    let want = words(text);
    if (!want.length) return [];
    if (want.join(' ') === '711' || want.join(' ') === '7 11') want = ['7', 'eleven'];
    return PLACES.filter((p) => {
      const have = words(`${p.name} ${p.street}`);
      return want.every((w) => have.some((h) => h.startsWith(w) || (w.length > 4 && w.startsWith(h.slice(0, 4)))));
    }).slice(0, 6);
  }

  function choose(f, p) {
    f.value = p.name;
    idOf(f).value = String(p.id);
    close(f);
  }

  function close(f) {
    const ul = listOf(f);
    ul.hidden = true;
    ul.textContent = '';
    f.removeAttribute('aria-activedescendant');
  }

  function render(f) {
    const ul = listOf(f);
    const hits = matches(f.value);
    ul.textContent = '';
    if (!hits.length || document.activeElement !== f) { close(f); return; }
    hits.forEach((p, i) => {
      const li = document.createElement('li');
      li.id = `${f.dataset.place}-opt-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-label', p.name);
      li.dataset.placeId = p.id;
      li.innerHTML = '<span class="pin" aria-hidden="true">&#9679;</span><span><b></b><span class="meta"></span></span>';
      li.querySelector('b').textContent = p.name;
      li.querySelector('.meta').textContent = `${p.street}, San Francisco`;
      li.addEventListener('mousedown', (e) => e.preventDefault());  // keep the focus in the field
      li.addEventListener('click', () => choose(f, p));
      ul.appendChild(li);
    });
    ul.hidden = false;
  }

  function move(f, step) {
    const opts = Array.from(listOf(f).querySelectorAll('[role=option]'));
    if (!opts.length) return;
    const cur = opts.findIndex((o) => o.getAttribute('aria-selected') === 'true');
    const next = (cur + step + opts.length) % opts.length;
    opts.forEach((o, i) => o.setAttribute('aria-selected', i === next ? 'true' : 'false'));
    f.setAttribute('aria-activedescendant', opts[next].id);
  }

  for (const f of fields) {
    const hid = idOf(f);
    if (hid.value && (!byId.has(hid.value) || byId.get(hid.value).name !== f.value)) hid.value = '';
    f.addEventListener('input', () => { hid.value = ''; render(f); });
    f.addEventListener('focus', () => { last = f; });
    f.addEventListener('keydown', (e) => {
      const open = !listOf(f).hidden;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        if (!open) render(f);
        move(f, e.key === 'ArrowDown' ? 1 : -1);
        e.preventDefault();
      } else if (e.key === 'Enter' && open) {
        const sel = listOf(f).querySelector('[aria-selected=true]');
        if (sel) { e.preventDefault(); choose(f, byId.get(sel.dataset.placeId)); }
      } else if (e.key === 'Escape') {
        close(f);
      }
    });
  }

  let pressed = false;
  const stale = () => fields.filter((f) => !listOf(f).hidden && document.activeElement !== f);
  document.addEventListener('mousedown', () => { pressed = true; }, true);
  document.addEventListener('click', () => { pressed = false; setTimeout(() => stale().forEach(close), 0); });
  document.addEventListener('mouseup', () => setTimeout(() => { pressed = false; }, 50), true);
  document.addEventListener('focusin', () => { if (!pressed) stale().forEach(close); });

  document.querySelectorAll('.sugg-item').forEach((b) => b.addEventListener('click', () => {
    const p = byId.get(b.dataset.placeId);
    const f = (last && !last.value.trim()) ? last : (fields.find((x) => !x.value.trim()) || fields[fields.length - 1]);
    choose(f, p);
    const next = fields.find((x) => !x.value.trim());
    if (next) next.focus();
  }));

  // ---- the pickup date's calendar
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
    'November', 'December'];
  const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const date = form.querySelector('input[data-cal]');
  if (!date) return;
  const make = (y, m, d) => {
    const t = new Date(y, m - 1, d, 12);
    return t.getFullYear() === y && t.getMonth() === m - 1 && t.getDate() === d ? t : null;
  };
  function parse(v) {
    v = (v || '').toLowerCase().replace(/,/g, ' ').trim().split(/\s+/).join(' ');
    let m = v.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/);
    if (m) return make(+m[1], +m[2], +m[3]);
    m = v.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
    if (m) return make(+m[3], +m[1], +m[2]);
    const w = v.split(' ').filter((x) => !DAYS.some((d) => d.slice(0, 3).toLowerCase() === x.slice(0, 3)));
    if (w.length !== 3 || w[0].length < 3 || !/^\d{1,2}$/.test(w[1]) || !/^\d{4}$/.test(w[2])) return null;
    const mon = MONTHS.findIndex((n) => n.toLowerCase().startsWith(w[0]));
    return mon < 0 ? null : make(+w[2], mon + 1, +w[1]);
  }
  const short = (t) => `${t.getMonth() + 1}/${t.getDate()}/${t.getFullYear()}`;
  const full = (t) => `${DAYS[t.getDay()]}, ${MONTHS[t.getMonth()]} ${t.getDate()}, ${t.getFullYear()}`;
  const today = parse(form.dataset.today);
  const last30 = new Date(today.getTime() + 30 * 864e5);
  let view = new Date(today.getFullYear(), today.getMonth(), 1, 12);
  const cal = document.createElement('div');
  cal.className = 'cal';
  cal.hidden = true;
  cal.setAttribute('role', 'dialog');
  cal.setAttribute('aria-label', 'Choose a pickup date');
  form.appendChild(cal);

  function btn(label, text, onclick, cls) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('aria-label', label);
    if (cls) b.className = cls;
    b.addEventListener('click', onclick);
    return b;
  }
  function draw() {
    cal.textContent = '';
    const head = document.createElement('div');
    head.className = 'cal-head';
    const title = document.createElement('b');
    title.textContent = `${MONTHS[view.getMonth()]} ${view.getFullYear()}`;
    const prev = btn('Previous month', '\u2039', () => { view = new Date(view.getFullYear(), view.getMonth() - 1, 1, 12); draw(); });
    prev.disabled = view.getFullYear() === today.getFullYear() && view.getMonth() === today.getMonth();
    const next = btn('Next month', '\u203a', () => { view = new Date(view.getFullYear(), view.getMonth() + 1, 1, 12); draw(); });
    next.disabled = new Date(view.getFullYear(), view.getMonth() + 1, 1, 12) > last30;
    head.append(prev, title, next);
    const grid = document.createElement('div');
    grid.className = 'cal-grid';
    for (const d of DAYS) {
      const s = document.createElement('span');
      s.className = 'dow';
      s.textContent = d.slice(0, 1);
      s.setAttribute('aria-hidden', 'true');
      grid.appendChild(s);
    }
    for (let i = 0; i < view.getDay(); i++) grid.appendChild(document.createElement('span'));
    const sel = parse(date.value);
    for (let d = 1; ; d++) {
      const t = make(view.getFullYear(), view.getMonth() + 1, d);
      if (!t) break;
      const isToday = short(t) === short(today), isSel = sel && short(t) === short(sel);
      const b = btn(full(t), String(d), () => { date.value = short(t); hide(); }, `${isToday ? 'today' : ''} ${isSel ? 'sel' : ''}`);
      b.disabled = t < today || t > last30;
      if (isToday) b.setAttribute('aria-current', 'date');
      if (isSel) b.setAttribute('aria-pressed', 'true');
      grid.appendChild(b);
    }
    cal.append(head, grid);
  }
  function show() {
    const t = parse(date.value);
    if (cal.hidden && t && t >= today && t <= last30) view = new Date(t.getFullYear(), t.getMonth(), 1, 12);
    cal.hidden = false;
    draw();
  }
  function hide() { cal.hidden = true; }
  date.addEventListener('focus', show);
  date.addEventListener('click', () => { if (cal.hidden) show(); });
  date.addEventListener('input', () => {
    const t = parse(date.value);
    if (t && !cal.hidden && t >= today && t <= last30) { view = new Date(t.getFullYear(), t.getMonth(), 1, 12); draw(); }
  });
  date.addEventListener('keydown', (e) => { if (e.key === 'Escape') hide(); });
  const inside = (el) => el === date || cal.contains(el);
  document.addEventListener('mousedown', (e) => { if (!cal.hidden && !inside(e.target)) hide(); });
  document.addEventListener('focusin', (e) => { if (!cal.hidden && !inside(e.target)) hide(); });
  form.addEventListener('submit', () => {
    hide();
    const t = parse(date.value);
    if (t) date.value = short(t);
  });
})();

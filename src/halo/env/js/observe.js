// Compact accessibility tree of the page in one DOM walk, with stable element ids.
// Each element worth naming gets a `data-halo-id` attribute the first time it is seen and keeps it while the node
// lives, so the same element has the same id across steps. Ids never restart within an episode: the caller passes
// the next free id. Waits one animation frame first (lets the page render what the last action changed).
// Returns JSON of {text, els: [[id, role, name, x, y, w, h, value]], next, title}.
async ({start, maxName, maxText, maxLines, settleMs, requestWaitMs, timerWaitMs}) => {
  // Settle: requests the last action started (fetch/XHR, tracked by instrument.js) finish, bounded; short timeouts
  // it set fire (those due within timerWaitMs of now: a page that polls in a loop holds the read up no longer);
  // their continuations run; one animation frame renders the result. A navigation requested meanwhile ends the
  // read: the caller waits for the new document and reads again.
  const since = window.__haloObservedAt || 0;
  const inflight = window.__haloInflight;
  const timers = window.__haloTimers;
  if (inflight) {
    const t0 = performance.now();
    const deadline = t0 + requestWaitMs, timerDeadline = t0 + (timerWaitMs || 0);
    const requests = () => Array.from(inflight).some((t) => t.at >= since);
    const soon = () => timers && performance.now() < timerDeadline &&
      Array.from(timers.values()).some((t) => t.at >= since && t.due <= timerDeadline);
    while ((requests() || soon()) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 0));
  }
  await new Promise((resolve) => {
    const t = setTimeout(resolve, settleMs);
    requestAnimationFrame(() => { clearTimeout(t); resolve(); });
  });
  if (window.__haloNavigating) return JSON.stringify({ navigating: true });
  const ATTR = 'data-halo-id';
  let next = Math.max(window.__haloNext || 1, start || 1);
  const seen = new Set();
  const lines = [];
  const els = [];
  const TAG_ROLE = {
    A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', SUMMARY: 'button', IMG: 'img',
    H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading', H5: 'heading', H6: 'heading', NAV: 'navigation',
    MAIN: 'main', FORM: 'form', TABLE: 'table', TR: 'row', TH: 'columnheader', TD: 'cell', UL: 'list',
    OL: 'list', LI: 'listitem', DIALOG: 'dialog', LABEL: 'label', OPTION: 'option', HEADER: 'banner',
    FOOTER: 'contentinfo', ASIDE: 'complementary', SECTION: 'region', ARTICLE: 'article', P: 'paragraph',
  };
  const INPUT_ROLE = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
    range: 'slider', number: 'spinbutton', search: 'searchbox', email: 'textbox', tel: 'textbox', text: 'textbox',
    url: 'textbox', password: 'textbox', date: 'textbox', 'datetime-local': 'textbox', time: 'textbox',
    month: 'textbox', week: 'textbox', color: 'button', file: 'button',
  };
  const INTERACTIVE_ROLES = new Set([
    'button', 'link', 'checkbox', 'radio', 'textbox', 'searchbox', 'combobox', 'listbox', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'slider', 'spinbutton', 'switch', 'tab', 'treeitem',
    'gridcell',
  ]);
  // Containers shown as a line only when named (keeps the tree compact).
  const STRUCTURAL = new Set(['navigation', 'main', 'form', 'dialog', 'banner', 'contentinfo', 'complementary',
    'region', 'article', 'table', 'list', 'row', 'listitem', 'cell', 'columnheader', 'paragraph', 'label']);
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'SVG', 'svg', 'IFRAME',
    'CANVAS', 'BR', 'HR']);

  const clean = (s, n) => {
    s = (s || '').replace(/\s+/g, ' ').trim();
    return s.length > n ? s.slice(0, n - 1) + '…' : s;
  };
  const quote = (s) => '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';

  function roleOf(el) {
    const r = el.getAttribute('role');
    if (r) return r.split(' ')[0];
    if (el.tagName === 'INPUT') return INPUT_ROLE[(el.type || 'text').toLowerCase()] || 'textbox';
    if (el.tagName === 'A') return el.hasAttribute('href') ? 'link' : null;
    if (el.tagName === 'IMG') return el.getAttribute('alt') === '' ? null : 'img';
    if (el.isContentEditable && el.getAttribute('contenteditable') !== null) return 'textbox';
    return TAG_ROLE[el.tagName] || null;
  }

  function labelText(el) {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const t = by.split(/\s+/).map((i) => document.getElementById(i)).filter(Boolean)
        .map((e) => e.textContent).join(' ');
      if (t.trim()) return t;
    }
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) return al;
    if (el.labels && el.labels.length) {
      const t = Array.from(el.labels).map((l) => l.textContent).join(' ');
      if (t.trim()) return t;
    }
    return '';
  }

  function nameOf(el, role) {
    let n = labelText(el);
    if (n) return n;
    const tag = el.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
      if (tag === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type)) return el.value || el.type;
      return el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('name') || '';
    }
    if (tag === 'IMG') return el.getAttribute('alt') || el.getAttribute('title') || '';
    if (role && (INTERACTIVE_ROLES.has(role) || role === 'heading' || role === 'clickable')) {
      let t = el.innerText !== undefined ? el.innerText : el.textContent;
      if (!t || !t.trim()) {
        const img = el.querySelector('img[alt],[aria-label],[title]');
        t = el.getAttribute('title') || (img && (img.getAttribute('alt') || img.getAttribute('aria-label') ||
          img.getAttribute('title'))) || '';
      }
      return t;
    }
    return el.getAttribute('title') || '';
  }

  function valueOf(el, role) {
    const tag = el.tagName;
    if (tag === 'INPUT') {
      const t = (el.type || 'text').toLowerCase();
      if (t === 'checkbox' || t === 'radio') return null;
      if (t === 'password') return el.value ? '•'.repeat(Math.min(el.value.length, 8)) : '';
      if (['button', 'submit', 'reset', 'image', 'file'].includes(t)) return null;
      return el.value;
    }
    if (tag === 'TEXTAREA') return el.value;
    if (tag === 'SELECT') return Array.from(el.selectedOptions).map((o) => o.textContent.trim()).join(', ');
    if (role === 'textbox' && el.isContentEditable) return el.innerText;
    return null;
  }

  function states(el) {
    const s = [];
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') s.push('disabled');
    if (el.checked === true || el.getAttribute('aria-checked') === 'true') s.push('checked');
    if (el.getAttribute('aria-selected') === 'true' || (el.tagName === 'OPTION' && el.selected)) s.push('selected');
    const ex = el.getAttribute('aria-expanded');
    if (ex) s.push(ex === 'true' ? 'expanded' : 'collapsed');
    if (el.required) s.push('required');
    if (document.activeElement === el && el !== document.body) s.push('focused');
    return s;
  }

  function idFor(el) {
    let id = el.getAttribute(ATTR);
    if (!id || seen.has(id)) {  // new element, or a clone that copied another's id
      id = String(next++);
      el.setAttribute(ATTR, id);
    }
    seen.add(id);
    return id;
  }

  function emit(depth, s) {
    if (lines.length < maxLines) lines.push('  '.repeat(Math.min(depth, 20)) + s);
  }

  function walk(node, depth, parentPointer, insideNamed) {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (lines.length >= maxLines) return;
      if (c.nodeType === 3) {  // text
        if (!insideNamed) {
          const t = clean(c.nodeValue, maxText);
          if (t) emit(depth, 'StaticText ' + quote(t));
        }
        continue;
      }
      if (c.nodeType !== 1) continue;
      const el = c;
      if (SKIP.has(el.tagName)) continue;
      if (el.hasAttribute(ATTR) === false && el.getAttribute('aria-hidden') === 'true') continue;
      if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true })) {
        // display: contents has no box of its own (checkVisibility says false) but its children are shown
        if (getComputedStyle(el).display === 'contents') walk(el, depth, parentPointer, insideNamed);
        continue;
      }
      if (el.tagName === 'INPUT' && el.type === 'hidden') continue;
      let role = roleOf(el);
      const pointer = getComputedStyle(el).cursor === 'pointer';
      if (!role && pointer && !parentPointer) role = 'clickable';
      const editableRoot = el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
      if (editableRoot && !role) role = 'textbox';
      const focusable = el.hasAttribute('tabindex') && el.tabIndex >= 0;
      const interactive = !!role && (INTERACTIVE_ROLES.has(role) || role === 'clickable' || focusable);
      let childDepth = depth;
      let named = insideNamed;
      if (role && (interactive || role === 'heading' || role === 'img' || !STRUCTURAL.has(role) ||
                   labelText(el))) {
        const name = clean(nameOf(el, role), maxName);
        if (interactive || name || !STRUCTURAL.has(role)) {
          const id = idFor(el);
          const r = el.getBoundingClientRect();
          const value = valueOf(el, role);
          let line = `[${id}] ${role}`;
          if (name) line += ' ' + quote(name);
          if (value !== null && value !== undefined && value !== '') line += ' value=' + quote(clean(value, maxName));
          const st = states(el);
          if (st.length) line += ' ' + st.join(' ');
          emit(depth, line);
          els.push([id, role, name, Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height),
                    value === undefined ? null : value]);
          childDepth = depth + 1;
          if (name && (interactive || role === 'heading')) named = true;  // its text is its name
        }
      }
      if (el.tagName === 'SELECT') {
        for (const o of el.options) emit(childDepth, 'option ' + quote(clean(o.textContent, maxName)) +
          (o.selected ? ' selected' : ''));
        continue;
      }
      walk(el, childDepth, pointer, named);
      if (el.shadowRoot) walk(el.shadowRoot, childDepth, pointer, named);
    }
  }

  if (document.body) walk(document.body, 0, false, false);
  window.__haloNext = next;
  window.__haloObservedAt = performance.now();
  // One string: Playwright's value serialisation costs ~1 ms per hundred values; JSON is nearly free.
  // doc: the page's identity (BrowserEnv.snapshot keys on it): the document's timeOrigin, a new one after every
  // navigation, plus the client-side page changes within it (instrument.js)
  // vp: the visual viewport (CSS px) the screenshot clips to, read here to spare a CDP round trip
  const v = window.visualViewport;
  const vp = v ? [v.pageLeft, v.pageTop, v.width, v.height] : null;
  return JSON.stringify({ text: lines.join('\n'), els, next, title: document.title, doc: performance.timeOrigin + (window.__haloPages || 0), vp });
}

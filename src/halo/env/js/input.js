// fill / select_option / press on element `id`, with Playwright's semantics (injectedScript.ts: retarget
// 'follow-label', fill, selectText, selectOptions, focusNode) in one evaluate in the page's own world. Playwright's
// locator calls cost the page its ~300 KB injected script on the first use in every document, several round trips
// each, and wait up to the action timeout for a state that is not there; these fail at once and say why.
// Returns {ok: true, needsInput} or {error} ('gone': no such element; 'nooption': with the select's options).
([id, op, arg]) => {
  let el = document.querySelector('[data-halo-id="' + CSS.escape(id) + '"]');
  if (!el) return { error: 'gone' };
  const inputLike = (e) => e.matches('input, textarea, select') || e.isContentEditable;
  if (!inputLike(el)) {  // a label (or what a label encloses) stands for its control, as in Playwright
    const btn = el.closest('button, [role=button], [role=checkbox], [role=radio]');
    if (btn) el = btn;
    if (!el.matches('a, input, textarea, button, select, option, optgroup, [role=link], [role=button], ' +
                    '[role=checkbox], [role=radio]') && !el.isContentEditable) {
      const label = el.closest('label');
      if (label && label.control) el = label.control;
    }
  }
  const tag = el.tagName.toLowerCase();
  let r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || getComputedStyle(el).visibility !== 'visible') {
    if (op !== 'press') return { error: 'element is not visible' };
  } else if (r.bottom < 0 || r.right < 0 || r.top >= innerHeight || r.left >= innerWidth) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  }
  if (op === 'press') {  // focusNode(node, resetSelectionIfNotFocused)
    const active = el.getRootNode().activeElement;
    const focused = active === el && document.hasFocus();
    if (el.isContentEditable && !focused && active && active.blur) active.blur();
    el.focus();
    el.focus();
    if (!focused && tag === 'input') { try { el.setSelectionRange(0, 0); } catch (e) { /* not a text input */ } }
    return { ok: true };
  }
  if (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') return { error: 'element is disabled' };
  if (op === 'select') {
    if (tag !== 'select') return { error: 'Element is not a <select> element' };
    const norm = (s) => s.replace(/\s+/g, ' ').trim();
    const options = Array.from(el.options);
    const chosen = [];
    let remaining = arg.slice();
    for (const o of options) {
      const match = (want) => want === o.value || want === o.label || norm(want) === norm(o.label);
      if (!remaining.some(match)) continue;
      if (o.disabled || (o.parentElement && o.parentElement.disabled)) return { error: `option ${JSON.stringify(o.label)} is disabled` };
      chosen.push(o);
      if (!el.multiple) { remaining = []; break; }
      remaining = remaining.filter((w) => !match(w));
    }
    if (remaining.length) {
      return { error: 'nooption', missing: remaining[0],
               options: options.slice(0, 20).map((o) => o.label || o.textContent.trim()) };
    }
    el.value = undefined;
    chosen.forEach((o) => { o.selected = true; });
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { ok: true };
  }
  // fill: editable, then Playwright's fill(): some input types take the value directly, the rest get their text
  // selected and the new text inserted by the keyboard (insertText), as a user's typing would
  if (!inputLike(el)) return { error: 'Element is not an <input>, <textarea> or [contenteditable] element' };
  if (tag === 'select') return { error: 'Element is a <select>: use select_option' };
  if (el.readOnly || el.getAttribute('aria-readonly') === 'true') return { error: 'element is read-only' };
  let value = arg;
  if (tag === 'input') {
    const type = el.type.toLowerCase();
    const setValue = new Set(['color', 'date', 'time', 'datetime-local', 'month', 'range', 'week']);
    const typeInto = new Set(['', 'email', 'number', 'password', 'search', 'tel', 'text', 'url']);
    if (!typeInto.has(type) && !setValue.has(type)) return { error: `Input of type "${type}" cannot be filled` };
    if (type === 'number') {
      value = value.trim();
      if (isNaN(Number(value))) return { error: 'Cannot type text into input[type=number]' };
    }
    if (setValue.has(type)) {
      value = value.trim();
      el.focus();
      el.value = value;
      if (el.value !== value) return { error: 'Malformed value' };
      el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return { ok: true };
    }
    el.select();
    el.focus();
  } else if (tag === 'textarea') {
    el.selectionStart = 0;
    el.selectionEnd = el.value.length;
    el.focus();
  } else {
    let target = el;
    while (target.isContentEditable && target.parentElement && target.parentElement.isContentEditable) {
      target = target.parentElement;
    }
    target.focus();
    const range = document.createRange();
    range.selectNodeContents(el);
    const sel = window.getSelection();
    if (sel) { sel.removeAllRanges(); sel.addRange(range); }
  }
  return { ok: true, needsInput: true };
}

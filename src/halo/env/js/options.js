// The options of a <select> (value and label of each), or null when element `id` is not a select.
(id) => {
  const el = document.querySelector('[data-halo-id="' + CSS.escape(id) + '"]');
  if (!el || el.tagName !== 'SELECT') return null;
  return Array.from(el.options).map((o) => [o.value, o.label || o.textContent.trim()]);
}

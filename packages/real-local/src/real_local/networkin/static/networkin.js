// NetworkIn's dialogs, as LinkedIn's: "Create a post", "Invite ... to connect" and "Send post" open as modal
// dialogs over the page behind them (the feed, the profile, the post), which the server renders under the dialog.
// Escape, the backdrop or the close button go back to that page; a note's counter counts as you type; a notice can
// be dismissed. Run again by the router after each page swap.
(() => {
  for (const d of document.querySelectorAll('dialog[data-modal]')) {
    if (d.open) d.close();
    d.showModal();
    const close = d.querySelector('a[data-close]');
    const leave = () => { if (close) close.click(); };
    d.addEventListener('cancel', (e) => { e.preventDefault(); leave(); });
    d.addEventListener('mousedown', (e) => {
      if (e.target !== d) return;
      const r = d.getBoundingClientRect();  // a press on the backdrop, not in the dialog's box
      if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) leave();
    });
    const focus = d.querySelector('[autofocus]');
    if (focus) focus.focus();
  }
  for (const t of document.querySelectorAll('textarea[data-max]')) {
    const out = document.getElementById(t.dataset.counter);
    const max = Number(t.dataset.max);
    const show = () => { if (out) out.textContent = `${t.value.length}/${max}`; };
    t.addEventListener('input', show);
    show();
  }
  for (const b of document.querySelectorAll('[data-dismiss]')) {
    b.addEventListener('click', () => b.parentElement.remove());
  }
})();

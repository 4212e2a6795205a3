// StayNB's date picker, as Airbnb's: the shared check-in / check-out calendar (/_spa/rangepicker.js), dates shown as
// "Jul 26, 2024". Hearts open the "Save to wishlist" dialog (below).
RealLocalRangePicker(document.querySelector('form.bar[data-today]'), { weekday: false, wrapper: 'label' });


// The heart (and "Save" on a listing) asks which wishlist, as Airbnb does: a dialog with the wishlists (Favorites,
// the default, first) and a field to create a new one; choosing one posts the save.
(() => {
  const dlg = document.querySelector('.wl-dialog');
  if (!dlg) return;
  const back = dlg.parentElement;
  let opener = null;
  const open = (btn) => {
    opener = btn;
    dlg.querySelectorAll('input[name=id]').forEach((i) => { i.value = btn.dataset.save; });
    dlg.querySelector('.wl-for').textContent = btn.dataset.title || '';
    back.hidden = false;
    dlg.querySelector('button').focus();
  };
  const close = () => { back.hidden = true; if (opener) opener.focus(); };
  document.querySelectorAll('button[data-save]').forEach((b) => b.addEventListener('click', () => open(b)));
  dlg.querySelector('.wl-close').addEventListener('click', close);
  back.addEventListener('mousedown', (e) => { if (e.target === back) close(); });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && !back.hidden) close(); });
})();

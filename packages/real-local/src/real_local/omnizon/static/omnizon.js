// Omnizon: report what the user types into the search box (REAL's filter.searchInputValue).
// Sent at once (a fast agent may finish right after typing), one request at a time: while one is in flight the
// latest value waits, so the server never ends on a stale value.
(function () {
  var box = document.getElementById('search-input');
  if (!box) return;
  var busy = false, again = false;
  function send() {
    if (busy) { again = true; return; }
    busy = true;
    fetch('/api/search-input', {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({value: box.value}), keepalive: true})
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; send(); } });
  }
  box.addEventListener('input', send);
})();

// Checkout: the add-a-card form opens and closes; the order summary follows the delivery date and the Buy Now
// quantity (the server computes the same totals again when the order is placed).
(function () {
  var toggle = document.getElementById('add-card-toggle'), box = document.getElementById('add-card');
  if (toggle && box) {
    toggle.addEventListener('click', function () {
      var open = box.hidden;
      box.hidden = !open;
      toggle.setAttribute('aria-expanded', open ? 'true' : 'false');
      if (open) { var first = document.getElementById('cardName'); if (first) first.focus(); }
    });
  }
  var form = document.getElementById('checkout-form');
  if (!form) return;
  var rate = parseFloat(form.dataset.taxRate), unit = parseFloat(form.dataset.unit);
  var subtotal = parseFloat(form.dataset.subtotal);
  function money(v) { return '$' + v.toFixed(2); }
  function set(id, text) { var el = document.getElementById(id); if (el) el.textContent = text; }
  function update() {
    var qty = document.getElementById('buy-now-quantity');
    var sub = subtotal, count = null;
    if (qty && !isNaN(unit)) { count = parseInt(qty.value, 10); sub = Math.round(unit * count * 100) / 100; }
    var d = form.querySelector('input[name=delivery]:checked');
    var fee = d ? parseFloat(d.dataset.fee) : 0;
    var tax = Math.round(sub * rate * 100) / 100;
    if (count !== null) set('sum-count', String(count));
    set('sum-items', money(sub)); set('sum-shipping', money(fee)); set('sum-before-tax', money(sub + fee));
    set('sum-tax', money(tax)); set('sum-total', money(sub + fee + tax));
    if (d) {
      var day = d.parentNode.querySelector('.delivery-day');
      document.querySelectorAll('[data-arrival]').forEach(function (el) { el.textContent = day.textContent; });
    }
    document.querySelectorAll('#card-form [data-sync]').forEach(function (el) {
      if (el.dataset.sync === 'delivery' && d) el.value = d.value;
      if (el.dataset.sync === 'quantity' && qty) el.value = qty.value;
    });
  }
  form.addEventListener('change', update);
})();

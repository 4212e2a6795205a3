// DashDish checkout: each change of the form is sent to the server (the session keeps the choices) and the
// summary shows the charges it returns. One request at a time; the latest form state is sent last. Placing the
// order posts the whole form, so the order never depends on these calls.
(function () {
  var form = document.getElementById('checkout');
  if (!form) return;
  var busy = false, again = false;
  function money(v) { return '$' + Number(v).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function toggle() {
    var pickup = form.querySelector('input[name=shippingOption][value=Pickup]').checked;
    document.getElementById('delivery-only').hidden = pickup;
    document.getElementById('pickup-note').hidden = !pickup;
  }
  function send() {
    if (busy) { again = true; return; }
    busy = true;
    var body = new URLSearchParams(new FormData(form)).toString();
    fetch('/api/checkout', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'},
      body: body, keepalive: true})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        var err = document.getElementById('c-error');
        if (d.error) { err.textContent = d.error; return; }
        err.textContent = '';
        Object.keys(d.charges).forEach(function (k) {
          var el = document.getElementById('c-' + k);
          if (el) el.textContent = money(d.charges[k]);
        });
      })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; send(); } });
  }
  form.addEventListener('change', function () { toggle(); send(); });
  form.addEventListener('input', function (e) { if (e.target.type === 'text') send(); });
})();

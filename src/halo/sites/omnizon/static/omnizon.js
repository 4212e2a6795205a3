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

// Omnizon: report what the user types into the search box (REAL's filter.searchInputValue).
(function () {
  var box = document.getElementById('search-input');
  if (!box) return;
  var timer = null;
  function send() {
    fetch('/api/search-input', {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({value: box.value}), keepalive: true}).catch(function () {});
  }
  box.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(send, 250); });
  box.form.addEventListener('submit', function () { clearTimeout(timer); });
})();

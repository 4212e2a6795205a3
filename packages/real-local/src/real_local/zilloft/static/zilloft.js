// Zilloft: dialogs for "Request a tour" / "Contact agent", JSON form posts, the save-home heart,
// whole listing cards that open the listing (as on Zillow), and filters that apply as soon as a radio button or
// checkbox changes (as Zillow's do), in dropdowns.
(function () {
  document.addEventListener('click', function (e) {
    var open = e.target.closest('[data-open]');
    if (open) { document.getElementById(open.dataset.open).showModal(); return; }
    var close = e.target.closest('[data-close]');
    if (close) { close.closest('dialog').close(); return; }
    var card = e.target.closest('.hcard');
    if (card && !e.target.closest('a, button')) { card.querySelector('a.addr').click(); return; }
    var save = e.target.closest('[data-save]');
    if (save) {
      fetch('/api/saved-homes', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({homeId: save.dataset.save})})
        .then(function (r) { return r.json(); })
        .then(function (d) {
          document.querySelectorAll('[data-save="' + save.dataset.save + '"]').forEach(function (b) {
            b.setAttribute('aria-pressed', d.saved ? 'true' : 'false');
            if (b.textContent.indexOf('Save') >= 0) b.textContent = '\u2665 ' + (d.saved ? 'Saved' : 'Save');
          });
        });
    }
  });
  document.querySelectorAll('form[data-endpoint]').forEach(function (form) {
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var body = {};
      new FormData(form).forEach(function (v, k) { body[k] = v; });
      body.wantFinancingInformation = !!body.wantFinancingInformation;
      var alert = form.querySelector('.alert');
      fetch(form.dataset.endpoint, {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify(body)})
        .then(function (r) { return r.json().then(function (d) { return [r.ok, d]; }); })
        .then(function (res) {
          if (!res[0]) { alert.textContent = res[1].error; alert.hidden = false; return; }
          form.innerHTML = '<h2>' + res[1].title + '</h2><div class="okbox" role="status">' + res[1].message +
            '</div><p><button class="btn" type="button" data-close>Done</button></p>';
        })
        .catch(function () { alert.textContent = 'Could not reach Zilloft. Try again.'; alert.hidden = false; });
    });
  });
  // what a search box holds as the user types (filters.searchInputValue), as Omnizon records it: sent at once,
  // one request at a time (the latest value waits while one is in flight, so the server never ends stale)
  document.querySelectorAll('input[name="searchQuery"]').forEach(function (box) {
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
  });
  // the search page's filters are dropdowns, as on Zillow (Price, Beds & Baths, Home Type, More): a button opens
  // its panel (closing any other), Escape or a click elsewhere closes it; a radio button or checkbox applies at
  // once and in place, as Zillow's do: the results, the map, the buttons' labels and the URL change while the open
  // panel stays as it is (no new page under the pointer: a second tick is never lost); typed prices on Apply/Enter
  var filters = document.getElementById('filters');
  if (filters) {
    var panels = filters.querySelectorAll('[data-dd]');
    function show(btn, on) {
      btn.setAttribute('aria-expanded', on ? 'true' : 'false');
      document.getElementById(btn.getAttribute('aria-controls')).hidden = !on;
    }
    panels.forEach(function (btn) {
      btn.addEventListener('click', function () {
        var on = btn.getAttribute('aria-expanded') !== 'true';
        panels.forEach(function (b) { if (b !== btn) show(b, false); });
        show(btn, on);
      });
    });
    document.addEventListener('click', function (e) {
      if (!e.target.closest('.dd')) panels.forEach(function (b) { show(b, false); });
    });
    document.addEventListener('keydown', function (e) {
      if (e.key !== 'Escape') return;
      panels.forEach(function (b) { if (b.getAttribute('aria-expanded') === 'true') { show(b, false); b.focus(); } });
    });
    // "Use exact match" turns "3+" into "3" at once (no reload) and applies only when a number is chosen
    function relabel(box) {
      var unit = box.name === 'bedsExact' ? 'bedrooms' : 'bathrooms', chosen = '0';
      filters.querySelectorAll('input[type=radio][name=' + (unit === 'bedrooms' ? 'minBeds' : 'minBaths') + ']')
        .forEach(function (r) {
          if (r.checked) chosen = r.value;
          if (r.value === '0') return;
          r.setAttribute('aria-label', box.checked ? 'Exactly ' + r.value + ' ' + unit : r.value + '+ ' + unit);
          r.parentNode.lastChild.nodeValue = box.checked ? r.value : r.value + '+';
        });
      return chosen !== '0';
    }
    filters.addEventListener('change', function (e) {
      if (e.target.type !== 'radio' && e.target.type !== 'checkbox') return;
      if ((e.target.name === 'bedsExact' || e.target.name === 'bathsExact') && !relabel(e.target)) return;
      var dd = e.target.closest('.dd-panel');
      filters.elements.open.value = dd ? dd.id.replace('dd-', '') : '';
      update();
    });
    // one request at a time, the latest form wins; an XMLHttpRequest whose load handler swaps the results, so an
    // observer that waits for the page's requests (HALO's env) sees the new results once it is over
    var busy = false, again = false;
    function update() {
      if (busy) { again = true; return; }
      busy = true;
      var url = filters.action + '?' + new URLSearchParams(new FormData(filters)).toString();
      var x = new XMLHttpRequest();
      x.open('GET', url);
      x.onload = function () {
        var doc = new DOMParser().parseFromString(x.responseText, 'text/html');
        var mine = document.querySelector('.split'), theirs = doc.querySelector('.split');
        if (x.status !== 200 || !mine || !theirs || again) return;
        mine.replaceWith(document.adoptNode(theirs));
        var alert = document.querySelector('main > .alert, body > .alert, .alert[role=alert]');
        var news = doc.querySelector('.alert[role=alert]');
        if (alert && !alert.closest('form')) alert.remove();
        if (news) document.querySelector('.split').before(document.adoptNode(news));
        panels.forEach(function (btn) {
          var nb = doc.querySelector('[data-dd="' + btn.dataset.dd + '"]');
          if (!nb) return;
          btn.className = nb.className;
          btn.setAttribute('aria-label', nb.getAttribute('aria-label'));
          btn.firstChild.nodeValue = nb.firstChild.nodeValue;
        });
        document.title = doc.title;
        history.replaceState(null, '', x.responseURL || url);  // the router's own entries stay as they are
      };
      x.onloadend = function () { busy = false; if (again) { again = false; update(); } };
      x.send();
    }
  }
})();

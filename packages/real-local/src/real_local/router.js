// REAL's sites are single-page apps: a click swaps the page's content and pushes a history entry; no new document.
// REAL-local renders every page on the server, and this router gives it the same navigation: a same-origin link,
// a GET form or a urlencoded POST form is fetched, its <body> and title replace the current ones, the URL is pushed
// (back/forward fetch the entry's URL again), and the new body's scripts run. Listeners the page's scripts put on
// `document` and `window` are removed at each swap, as a new document would drop them. Anything else (another
// origin, a target, a download, a modifier key, a non-HTML answer, a page without this router) navigates as usual.
// The request is an XMLHttpRequest and the swap happens in its load handler, so an observer that waits for the
// page's requests (HALO's env) sees the new page once the request is over.
(() => {
  if (window.__spaRouter) return;
  window.__spaRouter = true;
  const added = [];  // [target, type, listener, options] the page's scripts added to document/window
  const origAdd = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if ((this === document || this === window) && !routerAdding) added.push([this, type, listener, options]);
    return origAdd.call(this, type, listener, options);
  };
  let routerAdding = false;
  const on = (target, type, fn) => { routerAdding = true; target.addEventListener(type, fn); routerAdding = false; };

  // External scripts' text, fetched once per URL: a swapped page's scripts then run inline, in document order, as
  // part of the swap (a <script src> put in the page would run whenever it loads: after an observer took the page
  // for ready, and the next click would find no handler yet).
  const scriptText = new Map();

  function runScripts(root) {
    for (const old of Array.from(root.querySelectorAll('script'))) {
      const type = (old.getAttribute('type') || '').trim().toLowerCase();
      if (type && type !== 'text/javascript' && type !== 'application/javascript') continue;
      const s = document.createElement('script');
      for (const a of Array.from(old.attributes)) s.setAttribute(a.name, a.value);
      if (old.src && scriptText.has(old.src)) {
        s.removeAttribute('src');
        s.textContent = scriptText.get(old.src) + '\n//# sourceURL=' + old.src;
      } else {
        s.async = false;  // not fetched: external scripts in document order, as the parser runs them
        s.textContent = old.textContent;
      }
      old.replaceWith(s);
    }
  }

  function fetchScripts(doc, then) {
    const missing = Array.from(doc.querySelectorAll('script[src]')).map((s) => s.src)
      .filter((u, i, all) => !scriptText.has(u) && all.indexOf(u) === i && new URL(u).origin === location.origin);
    let left = missing.length;
    if (!left) { then(); return; }
    for (const u of missing) {  // started in the page's own request handler: no gap an observer could fall into
      const x = new XMLHttpRequest();
      x.open('GET', u);
      x.onloadend = () => {
        if (x.status === 200) scriptText.set(u, x.responseText);
        if (--left === 0) then();
      };
      x.send();
    }
  }

  let shown = location.href.split('#')[0];  // the page the body shows (a popstate to its own anchors keeps it)

  function swap(html, url, push) {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    if (!doc.body) { location.assign(url); return; }
    fetchScripts(doc, () => show(doc, url, push));
  }

  function show(doc, url, push) {
    for (const [target, type, listener, options] of added.splice(0)) {
      target.removeEventListener(type, listener, options);
    }
    if (push) history.pushState({ spa: true }, '', url);
    shown = location.href.split('#')[0];
    document.title = doc.title;
    const sheets = (d) => Array.from(d.head ? d.head.querySelectorAll('style, link[rel~="stylesheet"]') : []);
    const mine = sheets(document);
    const theirs = sheets(doc);
    const key = (els) => els.map((el) => el.outerHTML).join('\n');
    if (key(mine) !== key(theirs)) {  // another template's head (an error page): its styles replace these
      mine.forEach((el) => el.remove());
      theirs.forEach((el) => document.head.appendChild(document.importNode(el, true)));
    }
    document.body.replaceWith(doc.body);
    const hash = new URL(url, location.href).hash;
    const target = hash && document.getElementById(decodeURIComponent(hash.slice(1)));
    if (target) target.scrollIntoView(); else window.scrollTo(0, 0);
    runScripts(document.body);
  }

  function textPage(title, text) {  // what a browser shows for a plain-text answer
    const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    return `<!doctype html><title>${esc(title)}</title><body><h1>${esc(title)}</h1><pre>${esc(text)}</pre></body>`;
  }

  function request(method, url, body, push) {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    if (body !== null) xhr.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
    xhr.onload = () => {
      const type = xhr.getResponseHeader('Content-Type') || '';
      if (!type.includes('text/html')) {  // not a page (a file, JSON): the browser shows it as it would
        if (method === 'GET') location.assign(xhr.responseURL || url);
        else swap(textPage(`${xhr.status} ${xhr.statusText}`, xhr.responseText), xhr.responseURL || url, push);
        return;
      }
      // a redirect's target (POST-redirect-GET) is the new entry's URL; a page rendered straight from a POST keeps
      // the URL the form posted to, as the browser's address bar would
      swap(xhr.responseText, xhr.responseURL || url, push);
    };
    xhr.onerror = () => {  // the server did not answer: a GET lets the browser say so, a POST is not sent twice
      if (method === 'GET') location.assign(url);
      else swap(textPage('The request failed', `${method} ${url} got no answer from the server.`), url, push);
    };
    xhr.send(body);
  }

  const sameOrigin = (u) => u.origin === location.origin && (u.protocol === 'http:' || u.protocol === 'https:');

  // on window: after the page's own handlers (document, then window), so one that takes the event prevents this
  on(window, 'click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest && e.target.closest('a[href]');
    if (!a || (a.target && a.target !== '_self') || a.hasAttribute('download')) return;
    if (a.getAttribute('href').startsWith('#')) return;  // this page's own anchor, or a script's "#" button
    const u = new URL(a.href, location.href);
    if (!sameOrigin(u)) return;
    if (u.pathname === location.pathname && u.search === location.search && u.hash) return;  // an in-page anchor
    e.preventDefault();
    request('GET', u.href, null, true);
  });

  on(window, 'submit', (e) => {
    if (e.defaultPrevented) return;
    const form = e.target;
    const submitter = e.submitter || null;
    const method = ((submitter && submitter.getAttribute('formmethod')) || form.getAttribute('method') || 'get')
      .toLowerCase();
    const action = (submitter && submitter.getAttribute('formaction')) || form.getAttribute('action') || location.href;
    const target = (submitter && submitter.getAttribute('formtarget')) || form.getAttribute('target');
    const enctype = (form.getAttribute('enctype') || 'application/x-www-form-urlencoded').toLowerCase();
    const u = new URL(action, location.href);
    if (!sameOrigin(u) || (target && target !== '_self') || method === 'dialog') return;
    if (method === 'post' && enctype !== 'application/x-www-form-urlencoded') return;
    const data = new URLSearchParams();
    for (const [k, v] of new FormData(form, submitter)) data.append(k, typeof v === 'string' ? v : v.name);
    e.preventDefault();
    if (method === 'post') {
      request('POST', u.href, data.toString(), true);
    } else {
      u.search = data.toString();
      request('GET', u.href, null, true);
    }
  });

  on(window, 'popstate', () => {
    if (location.href.split('#')[0] !== shown) request('GET', location.href, null, false);
  });
})();

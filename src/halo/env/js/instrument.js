// Installed in every document of an episode (context init script), before the page's own scripts.
// Lets the observation wait for what the last action set off, without network-idle timers:
//  - window.__haloInflight: start times of the page's fetch/XHR requests still running;
//  - window.__haloNavigating: a cross-document navigation of this document has been requested;
//  - window.__haloPages: same-document navigations that pushed or traversed history (a client-side router's page
//    change): observe.js counts each as a new page of the document (its identity for snapshot/restore);
//  - window.__haloTimers: the page's pending short timeouts (setTimeout up to 1 s: a list closed 150 ms after a field
//    loses focus, a debounce), when each was set and is due; observe.js waits, bounded, for those the last action set.
(() => {
  if (window.__haloInflight) return;
  const inflight = new Set();
  Object.defineProperty(window, '__haloInflight', { value: inflight, enumerable: false });
  window.__haloNavigating = false;
  window.__haloPages = 0;
  const track = () => { const t = { at: performance.now() }; inflight.add(t); return () => inflight.delete(t); };
  const origFetch = window.fetch;
  if (origFetch) {
    window.fetch = function (...args) {
      const done = track();
      let p;
      try { p = origFetch.apply(this, args); } catch (e) { done(); throw e; }
      p.then(done, done);
      return p;
    };
  }
  const XHR = window.XMLHttpRequest;
  if (XHR) {
    const send = XHR.prototype.send;
    XHR.prototype.send = function (...args) {
      const done = track();
      this.addEventListener('loadend', done, { once: true });
      try { return send.apply(this, args); } catch (e) { done(); throw e; }
    };
  }
  const timers = new Map();
  Object.defineProperty(window, '__haloTimers', { value: timers, enumerable: false });
  const setT = window.setTimeout, clearT = window.clearTimeout;
  window.setTimeout = function (fn, ms, ...args) {
    const delay = Number(ms) || 0;
    if (typeof fn !== 'function' || delay > 1000) return setT.call(window, fn, ms, ...args);
    const now = performance.now();
    const id = setT.call(window, function (...a) { timers.delete(id); return fn.apply(this, a); }, ms, ...args);
    timers.set(id, { at: now, due: now + delay });
    return id;
  };
  window.clearTimeout = function (id) { timers.delete(id); return clearT.call(window, id); };
  if (window.navigation) {
    window.navigation.addEventListener('navigate', (e) => {
      if (!e.destination.sameDocument) window.__haloNavigating = true;
      else if (e.navigationType === 'push' || e.navigationType === 'traverse') window.__haloPages += 1;
    });
  }
})();

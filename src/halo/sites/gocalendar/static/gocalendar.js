// GoCalendar client: event details popover, the create/edit dialog (event or task), time and repeat pickers,
// slot clicks, view menu, calendar toggles, snackbar. Changes go to the JSON API, then the page reloads.
(function () {
  "use strict";
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const TIMES = JSON.parse($("#times-data").textContent);
  const REPEATS = JSON.parse($("#repeat-data").textContent);

  // ------------------------------------------------------------ snackbar
  function showSnackbar(text) {
    if (!text) return;
    $("#snackbar-text").textContent = text;
    $("#snackbar").hidden = false;
    clearTimeout(showSnackbar.t);
    showSnackbar.t = setTimeout(() => { $("#snackbar").hidden = true; }, 8000);
  }
  $("#snackbar-close").addEventListener("click", () => { $("#snackbar").hidden = true; });
  if (!$("#snackbar").hidden) showSnackbar($("#snackbar-text").textContent);

  // Every change is a plain form POST that the click submits at once (a navigation), answered by a redirect back
  // here: what the page shows afterwards is always the session's state.
  function here() {
    const u = new URL(window.location.href);
    u.searchParams.delete("error"); u.searchParams.delete("draft");
    return u.pathname + u.search;
  }
  function navPost(url, data) {
    const f = document.createElement("form");
    f.method = "POST"; f.action = url; f.hidden = true;
    for (const [k, v] of [["payload", JSON.stringify(data || {})], ["next", here()]]) {
      const i = document.createElement("input"); i.type = "hidden"; i.name = k; i.value = v; f.appendChild(i);
    }
    document.body.appendChild(f);
    f.submit();
  }

  const undoBtn = $("#snackbar-undo");
  if (undoBtn) undoBtn.addEventListener("click", () => navPost("/do/undo", {}));

  // ------------------------------------------------------------ scrolling, menus, calendar toggles
  const scroller = $("#scroller");
  if (scroller) scroller.scrollTop = 7 * 48;
  function closeMenus(except) { $$(".menu").forEach(m => { if (m !== except) m.hidden = true; }); }
  function wireMenu(btn, menu) {
    if (!btn || !menu) return;
    btn.addEventListener("click", (ev) => { ev.stopPropagation(); closeMenus(menu); menu.hidden = !menu.hidden; });
  }
  wireMenu($("#view-open"), $("#view-menu"));
  document.addEventListener("click", (ev) => {
    if (!ev.target.closest(".menu")) closeMenus();
    if (!ev.target.closest(".f-time") && !ev.target.closest("#time-list")) $("#time-list").hidden = true;
  });
  $$(".cal-toggle").forEach(cb => cb.addEventListener("change", () => {
    $$('.event[data-calendar="' + cb.dataset.calendar + '"]').forEach(e => { e.hidden = !cb.checked; });
  }));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") {  // from anywhere, a text field too: the innermost open thing closes, as in Google
      if (!$("#time-list").hidden) { $("#time-list").hidden = true; return; }
      if ($$(".menu").some(m => !m.hidden)) { closeMenus(); return; }
      if (!$("#recur-backdrop").hidden) { closeRecur(); return; }
      closePopover(); closeEditor();
      return;
    }
    if (ev.target.closest("input, textarea, select")) return;
    const go = { d: "day", w: "week", m: "month" }[ev.key.toLowerCase()];
    if (go) {
      const link = $$("#view-menu a").find(a => a.textContent.trim().toLowerCase().startsWith(go));
      if (link) window.location.href = link.getAttribute("href");
    }
  });

  // ------------------------------------------------------------ event details popover
  const pop = $("#popover");
  let current = null;
  function closePopover() { pop.hidden = true; current = null; }
  function openPopover(btn) {
    const ev = JSON.parse(btn.dataset.event);
    current = ev;
    $("#pop-title").textContent = ev.title;
    $("#pop-swatch").style.background = getComputedStyle(btn).getPropertyValue("--c");
    let when = ev.date.replace(/, \d{4}$/, "");
    if (ev.allDay && ev.endDate && ev.endDate !== ev.date) when += " – " + ev.endDate.replace(/, \d{4}$/, "");
    if (!ev.allDay) when += " ⋅ " + ev.startTime + (ev.kind === "task" ? "" : " – " + ev.endTime);
    $("#pop-when").textContent = when;
    $("#pop-repeat").textContent = REPEATS[ev.repeat] || "";
    $("#pop-repeat-line").hidden = !ev.repeat || ev.repeat === "none" || ev.kind === "task";
    $("#pop-location").textContent = ev.location || "";
    $("#pop-location-line").hidden = !ev.location;
    $("#pop-description").textContent = ev.description || "";
    $("#pop-description-line").hidden = !ev.description;
    $("#pop-edit").hidden = ev.kind === "task";
    $("#pop-done").hidden = ev.kind !== "task";
    const doneName = ev.completed ? "Mark uncompleted" : "Mark completed";
    const deleteName = ev.kind === "task" ? "Delete task" : "Delete event";
    $("#pop-done").setAttribute("aria-label", doneName); $("#pop-done").title = doneName;
    $("#pop-delete").setAttribute("aria-label", deleteName); $("#pop-delete").title = deleteName;
    pop.hidden = false;
    const r = btn.getBoundingClientRect(), w = pop.offsetWidth, h = pop.offsetHeight;
    let left = r.right + 8;
    if (left + w > window.innerWidth - 8) left = Math.max(8, r.left - w - 8);
    const top = Math.min(Math.max(8, r.top), window.innerHeight - h - 8);
    pop.style.left = left + "px"; pop.style.top = top + "px";
  }
  $$(".event").forEach(b => b.addEventListener("click", (ev) => { ev.stopPropagation(); openPopover(b); }));
  $("#pop-close").addEventListener("click", closePopover);
  document.addEventListener("click", (ev) => { if (!pop.hidden && !ev.target.closest("#popover")) closePopover(); });
  $("#pop-delete").addEventListener("click", () => {
    if (!current) return;
    if (current.kind === "task") { navPost("/do/tasks/" + current.id + "/delete", {}); return; }
    if (current.repeat && current.repeat !== "none") { openRecur(current); return; }
    navPost("/do/events/" + current.id + "/delete", {});
  });

  // deleting a repeating event asks which occurrences go (Google's "Delete recurring event")
  const recurBackdrop = $("#recur-backdrop");
  let recurring = null;
  function openRecur(ev) {
    recurring = ev;
    closePopover();
    $$('input[name="scope"]', recurBackdrop).forEach((r, i) => { r.checked = i === 0; });
    recurBackdrop.hidden = false;
    $('input[name="scope"]:checked', recurBackdrop).focus();
  }
  function closeRecur() { recurBackdrop.hidden = true; recurring = null; }
  $("#recur-cancel").addEventListener("click", closeRecur);
  recurBackdrop.addEventListener("mousedown", (ev) => { if (ev.target === recurBackdrop) closeRecur(); });
  $("#recur-dialog").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (!recurring) return;
    const scope = ($('input[name="scope"]:checked', recurBackdrop) || {}).value || "this";
    navPost("/do/events/" + recurring.id + "/delete", { scope: scope, occurrence: recurring.occurrence });
  });
  $("#pop-done").addEventListener("click", () => {
    if (!current) return;
    navPost("/do/tasks/" + current.id + "/done", { done: !current.completed });
  });
  $("#pop-edit").addEventListener("click", () => { const ev = current; closePopover(); openEditor(ev); });

  // ------------------------------------------------------------ create / edit dialog
  const backdrop = $("#editor-backdrop"), form = $("#editor");
  let editing = null, kind = "event", duration = 60;  // duration: the event's length in minutes (see moveEnd)
  function setKind(k) {
    kind = k;
    $$(".tab", form).forEach(t => t.setAttribute("aria-selected", t.dataset.kind === k ? "true" : "false"));
    form.classList.toggle("kind-task", k === "task");
    $("#editor-heading").textContent = editing ? "Edit event" : (k === "task" ? "New task" : "New event");
  }
  function setAllDay(on) { $("#f-allday").checked = on; form.classList.toggle("all-day", on); }
  function setRepeat(v) {
    const b = $("#f-repeat");
    b.dataset.value = v; b.textContent = (REPEATS[v] || REPEATS.none) + " ▾";
    b.setAttribute("aria-label", "Repeat: " + (REPEATS[v] || REPEATS.none));
  }
  function openEditor(ev, defaults) {
    editing = ev && ev.kind !== "task" ? ev : null;
    const d = Object.assign({}, defaults || {}, ev || {});
    $("#f-title").value = d.title || "";
    if (d.date) { $("#f-date").value = d.date; $("#f-enddate").value = d.endDate || d.date; }
    $("#f-start").value = d.startTime || "9:00am";
    $("#f-end").value = d.endTime || "10:00am";
    duration = 60; takeDuration();
    $("#f-location").value = d.location || "";
    $("#f-description").value = d.description || "";
    $("#f-calendar").value = d.calendar && d.calendar !== "tasks" ? d.calendar : "work";
    setAllDay(!!d.allDay); setRepeat(d.repeat || "none");
    $("#editor-error").textContent = "";
    setKind("event");
    $("#editor-tabs").hidden = !!editing;
    backdrop.hidden = false;
    $("#f-title").focus();
  }
  function closeEditor() { backdrop.hidden = true; editing = null; $("#time-list").hidden = true; }
  // Create starts on the page's default day (today when the view shows it), whatever an earlier dialog left
  $("#create-open").addEventListener("click", () => openEditor(null, { date: $("#f-date").defaultValue }));
  $("#editor-close").addEventListener("click", closeEditor);
  backdrop.addEventListener("mousedown", (ev) => { if (ev.target === backdrop) closeEditor(); });
  $$(".tab", form).forEach(t => t.addEventListener("click", () => setKind(t.dataset.kind)));
  $("#f-allday").addEventListener("change", () => setAllDay($("#f-allday").checked));
  const repeatMenu = $("#repeat-menu");
  wireMenu($("#f-repeat"), repeatMenu);
  $$(".menu-item", repeatMenu).forEach(it => it.addEventListener("click", () => { setRepeat(it.dataset.value); repeatMenu.hidden = true; }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const data = {
      title: $("#f-title").value, date: $("#f-date").value, startTime: $("#f-start").value,
      endTime: $("#f-end").value, allDay: $("#f-allday").checked, endDate: $("#f-enddate").value,
      location: $("#f-location").value, description: $("#f-description").value,
      repeat: $("#f-repeat").dataset.value, calendar: $("#f-calendar").value,
    };
    let url = "/do/events";
    if (editing) { url = "/do/events/" + editing.id; data.editId = editing.id; }
    else if (kind === "task") { url = "/do/tasks"; data.kind = "task"; }
    navPost(url, data);
  });

  // time picker: a list of quarter hours under the focused time field
  const timeList = $("#time-list");
  function openTimes(input) {
    timeList.innerHTML = "";
    TIMES.forEach(t => {
      const li = document.createElement("li");
      li.setAttribute("role", "option"); li.className = "suggest-item"; li.textContent = t;
      if (t === input.value) { li.classList.add("active"); li.setAttribute("aria-selected", "true"); }
      li.addEventListener("mousedown", (e) => {
        e.preventDefault(); input.value = t; timeList.hidden = true;
        if (input.id === "f-start") moveEnd(); else takeDuration();
      });
      timeList.appendChild(li);
    });
    const r = input.getBoundingClientRect();
    timeList.style.left = r.left + "px"; timeList.style.top = (r.bottom + 2) + "px";
    timeList.hidden = false;
    const active = $(".active", timeList);
    if (active) timeList.scrollTop = active.offsetTop - 60;
    else timeList.scrollTop = 36 * 32;
  }
  // Typed times read as the server reads them (7:45pm, 7:45 PM, 19:45, 7pm, noon); minutes after midnight.
  function minutes(text) {
    const s = String(text || "").trim().toLowerCase().replace(/[. ]/g, "");
    if (s === "noon" || s === "12noon") return 12 * 60;
    if (s === "midnight") return 0;
    const m = /^(\d{1,2})(?::?(\d{2}))?(am|pm|a|p)?$/.exec(s); if (!m) return null;
    let h = parseInt(m[1], 10); const mi = parseInt(m[2] || "0", 10);
    if (m[3]) { if (h < 1 || h > 12) return null; h = h % 12 + (m[3][0] === "p" ? 12 : 0); }
    return h <= 23 && mi <= 59 ? h * 60 + mi : null;
  }
  function fmtMinutes(n) {
    const h = Math.floor(n / 60) % 24, mi = n % 60;
    return ((h + 11) % 12 + 1) + ":" + String(mi).padStart(2, "0") + (h < 12 ? "am" : "pm");
  }
  // The event's length, kept when the start moves (typed or picked), as Google does; the end is its own to
  // change. An end at 12:00am is midnight, the end of the day; an event never runs past it from here.
  function endMinutes() {
    const s = minutes($("#f-start").value), e = minutes($("#f-end").value);
    return e === 0 && s !== null && s > 0 ? 24 * 60 : e;
  }
  function takeDuration() {
    const s = minutes($("#f-start").value), e = endMinutes();
    if (s !== null && e !== null && e > s) duration = e - s;
  }
  function moveEnd() {
    const s = minutes($("#f-start").value);
    if (s !== null) $("#f-end").value = fmtMinutes(Math.min(s + duration, 24 * 60));
  }
  $$(".f-time").forEach(inp => {
    inp.addEventListener("focus", () => openTimes(inp));
    inp.addEventListener("click", () => openTimes(inp));
    inp.addEventListener("input", () => { timeList.hidden = true; if (inp.id === "f-start") moveEnd(); else takeDuration(); });
    inp.addEventListener("change", () => { if (inp.id === "f-start") moveEnd(); else takeDuration(); });
    inp.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === "Tab") timeList.hidden = true; });
  });

  // clicking an empty slot of the week/day grid creates an event there (rounded down to the half hour)
  $$(".day-col").forEach(col => col.addEventListener("click", (ev) => {
    if (ev.target.closest(".event")) return;
    const y = ev.clientY - col.getBoundingClientRect().top;
    const half = Math.max(0, Math.min(47, Math.floor(y / 24)));
    const start = TIMES[half * 2], end = TIMES[(half * 2 + 4) % TIMES.length];
    openEditor(null, { date: col.dataset.date, startTime: start, endTime: end });
  }));
  // a save the server refused comes back with the values typed: reopen the dialog with them and the reason
  const draft = JSON.parse($("#draft-data").textContent);
  if (draft && draft.values) {
    const v = draft.values;
    openEditor(v.editId ? { id: v.editId, kind: "event" } : null, v);
    if (v.kind === "task") setKind("task");
    $("#editor-error").textContent = draft.error || "";
  }
  $$(".month-cell").forEach(cell => cell.addEventListener("click", (ev) => {
    if (ev.target.closest(".event") || ev.target.closest("a")) return;
    openEditor(null, { date: cell.dataset.date });
  }));
})();

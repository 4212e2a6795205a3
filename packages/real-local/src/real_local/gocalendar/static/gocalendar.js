// GoCalendar client: event details popover, the create/edit dialog (event or task), time and repeat pickers,
// slot clicks, view menu, calendar toggles, snackbar. Changes go to the JSON API, then the page reloads.
(function () {
  "use strict";
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const TIMES = JSON.parse($("#times-data").textContent);
  const REPEATS = JSON.parse($("#repeat-data").textContent);
  const CONTACTS = JSON.parse($("#contacts-data").textContent);
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December"];
  const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const longDate = (dt) => DAYS[dt.getDay()] + ", " + MONTHS[dt.getMonth()] + " " + dt.getDate() + ", " + dt.getFullYear();
  const isoDate = (dt) => dt.getFullYear() + "-" + String(dt.getMonth() + 1).padStart(2, "0") + "-" + String(dt.getDate()).padStart(2, "0");
  function readDate(text) {  // "Thursday, July 18, 2024", "July 18, 2024", "2024-07-18", "7/18/2024" -> Date | null
    const s = String(text || "").trim().replace(/^[A-Za-z]+,\s*/, "");
    let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
    if (m) return new Date(+m[1], +m[2] - 1, +m[3]);
    m = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))?$/.exec(s);
    if (m) return new Date(+(m[3] || 2024), +m[1] - 1, +m[2]);
    m = /^([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?$/.exec(s);
    if (m) {
      const i = MONTHS.findIndex(x => x.toLowerCase().startsWith(m[1].toLowerCase()) && m[1].length >= 3);
      if (i >= 0) return new Date(+(m[3] || 2024), i, +m[2]);
    }
    return null;
  }
  // a month grid of day links or buttons (the side calendar, the date picker): 6 weeks from the Sunday
  function monthGrid(grid, year, month, cell) {
    grid.innerHTML = "";
    ["S", "M", "T", "W", "T", "F", "S"].forEach(w => {
      const sp = document.createElement("span"); sp.className = "mini-dow"; sp.textContent = w; grid.appendChild(sp);
    });
    const first = new Date(year, month, 1);
    const start = new Date(year, month, 1 - first.getDay());
    for (let i = 0; i < 42; i++) {
      const dt = new Date(start.getFullYear(), start.getMonth(), start.getDate() + i);
      const el = cell(dt);
      el.classList.add("mini-day");
      if (dt.getMonth() !== month) el.classList.add("other");
      el.setAttribute("aria-label", longDate(dt));
      el.textContent = dt.getDate();
      grid.appendChild(el);
    }
  }

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
    f.requestSubmit();  // a submit event: the client-side router takes it, as any form
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
      if (!$("#guest-list").hidden) { $("#guest-list").hidden = true; return; }
      if (!$("#datepicker").hidden) { closePicker(); return; }
      if (!$("#calDelete-backdrop").hidden) { $("#calDelete-backdrop").hidden = true; return; }
      if ($$(".menu").some(m => !m.hidden)) { closeMenus(); return; }
      if (!$("#recur-backdrop").hidden) { closeRecur(); return; }
      closePopover(); closeEditor();
      return;
    }
    if (ev.target.closest("input, textarea, select")) return;
    const go = { d: "day", w: "week", m: "month", y: "year", a: "schedule" }[ev.key.toLowerCase()];
    if (go) {
      const link = $$("#view-menu a").find(a => a.textContent.trim().toLowerCase().startsWith(go));
      if (link) link.click();
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
    $("#pop-meet").textContent = ev.hasMeeting ? "meet.google.com/" + ev.meetingId : "";
    $("#pop-meet-line").hidden = !ev.hasMeeting;
    const guests = ev.guests || [];
    $("#pop-guest-count").textContent = guests.length === 1 ? "1 guest" : guests.length + " guests";
    $("#pop-guests").innerHTML = "";
    guests.forEach(g => {
      const li = document.createElement("li");
      li.textContent = g.name ? g.name + " <" + g.email + ">" : g.email;
      $("#pop-guests").appendChild(li);
    });
    $("#pop-guests-line").hidden = !guests.length;
    $("#pop-calendar").textContent = ev.kind === "task" ? "Tasks" : (ev.calendarName || "");
    $("#pop-calendar-line").hidden = !$("#pop-calendar").textContent;
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
  $$(".event").forEach(b => b.addEventListener("click", (ev) => {
    ev.stopPropagation();
    if (!justDragged) openPopover(b);
  }));
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
  let guests = [], meetOn = false;  // the editor's guests ({name, email}) and its video meeting
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
    const cals = $$("#f-calendar option").map(o => o.value);
    $("#f-calendar").value = cals.includes(d.calendar) ? d.calendar : (cals.includes("work") ? "work" : cals[0]);
    $("#f-color").value = d.color || "";
    guests = (d.guests || []).map(g => (typeof g === "string" ? { name: "", email: g } : g));
    renderGuests(); setMeet(!!d.hasMeeting); $("#f-guests").value = "";
    setAllDay(!!d.allDay); setRepeat(d.repeat || "none");
    $("#editor-error").textContent = "";
    setKind("event");
    $("#editor-tabs").hidden = !!editing;
    backdrop.hidden = false;
    $("#f-title").focus();
  }
  function closeEditor() {
    backdrop.hidden = true; editing = null; $("#time-list").hidden = true; $("#guest-list").hidden = true; closePicker();
  }
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
      guests: guests.map(g => g.email), hasMeeting: meetOn, color: $("#f-color").value,
    };
    if ($("#f-guests").value.trim()) data.guests.push($("#f-guests").value.trim());  // typed, not yet added
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

  // ------------------------------------------------------------ guests: an email, or a name from the address book
  const guestInput = $("#f-guests"), guestList = $("#guest-list");
  function renderGuests() {
    const ul = $("#guest-chips");
    ul.innerHTML = "";
    guests.forEach((g, i) => {
      const li = document.createElement("li"); li.className = "guest-chip";
      const label = document.createElement("span"); label.textContent = g.name || g.email; label.title = g.email;
      const x = document.createElement("button"); x.type = "button"; x.className = "icon-btn tiny";
      x.setAttribute("aria-label", "Remove " + (g.name || g.email)); x.title = "Remove " + (g.name || g.email);
      x.textContent = "×";
      x.addEventListener("click", () => { guests.splice(i, 1); renderGuests(); });
      li.append(label, x); ul.appendChild(li);
    });
  }
  function addGuest(text) {
    const t = String(text || "").trim();
    if (!t) return false;
    const byName = CONTACTS.find(c => c.name.toLowerCase() === t.toLowerCase() || c.email === t.toLowerCase());
    const g = byName ? { name: byName.name, email: byName.email }
      : (/^[^@\s,;<>]+@[^@\s,;<>]+\.[a-z]{2,}$/i.test(t) ? { name: "", email: t.toLowerCase() } : null);
    if (!g) { $("#editor-error").textContent = "Enter an email address or a contact's name: " + t; return false; }
    if (!guests.some(x => x.email === g.email)) guests.push(g);
    $("#editor-error").textContent = "";
    guestInput.value = ""; guestList.hidden = true; renderGuests();
    return true;
  }
  function suggestGuests() {
    const q = guestInput.value.trim().toLowerCase();
    guestList.innerHTML = "";
    const hits = q ? CONTACTS.filter(c => (c.name + " " + c.email).toLowerCase().includes(q)
      && !guests.some(g => g.email === c.email)).slice(0, 6) : [];
    hits.forEach(c => {
      const li = document.createElement("li");
      li.setAttribute("role", "option"); li.className = "suggest-item"; li.textContent = c.name + " <" + c.email + ">";
      li.setAttribute("aria-label", c.name + ", " + c.email);
      li.addEventListener("mousedown", (e) => { e.preventDefault(); addGuest(c.email); guestInput.focus(); });
      guestList.appendChild(li);
    });
    const r = guestInput.getBoundingClientRect();
    guestList.style.left = r.left + "px"; guestList.style.top = (r.bottom + 2) + "px";
    guestList.hidden = !hits.length;
  }
  guestInput.addEventListener("input", suggestGuests);
  guestInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === "," || e.key === ";") { e.preventDefault(); addGuest(guestInput.value); }
  });
  guestInput.addEventListener("blur", () => { setTimeout(() => { guestList.hidden = true; }, 150); });

  // ------------------------------------------------------------ Google Meet
  function setMeet(on) {
    meetOn = on;
    $("#f-meet").hidden = on; $("#f-meet-on").hidden = !on;
    $("#f-meet").setAttribute("aria-pressed", on ? "true" : "false");
  }
  $("#f-meet").addEventListener("click", () => setMeet(true));
  $("#f-meet-remove").addEventListener("click", () => setMeet(false));

  // ------------------------------------------------------------ the date picker under the editor's date boxes
  const picker = $("#datepicker");
  let pickerInput = null, pickerMonth = null;
  function closePicker() { picker.hidden = true; pickerInput = null; }
  function drawPicker() {
    $("#dp-title").textContent = MONTHS[pickerMonth.getMonth()] + " " + pickerMonth.getFullYear();
    const chosen = readDate(pickerInput.value);
    monthGrid($("#dp-grid"), pickerMonth.getFullYear(), pickerMonth.getMonth(), (dt) => {
      const b = document.createElement("button"); b.type = "button";
      if (chosen && isoDate(chosen) === isoDate(dt)) b.classList.add("sel");
      b.addEventListener("mousedown", (e) => e.preventDefault());
      b.addEventListener("click", () => {
        const input = pickerInput;
        input.value = longDate(dt);
        if (input.id === "f-date") {  // the end date follows a start moved past it
          const end = readDate($("#f-enddate").value);
          if (!end || end < dt) $("#f-enddate").value = longDate(dt);
        }
        closePicker();
        input.focus();
      });
      return b;
    });
  }
  function openPicker(input) {
    pickerInput = input;
    const cur = readDate(input.value) || new Date(2024, 6, 18);
    pickerMonth = new Date(cur.getFullYear(), cur.getMonth(), 1);
    drawPicker();
    const r = input.getBoundingClientRect();
    picker.style.left = r.left + "px"; picker.style.top = (r.bottom + 4) + "px";
    picker.hidden = false;
  }
  $$(".f-date").forEach(inp => {
    inp.addEventListener("click", () => openPicker(inp));
    inp.addEventListener("input", closePicker);  // typing a date: no picker in the way
  });
  $("#dp-prev").addEventListener("click", () => { pickerMonth = new Date(pickerMonth.getFullYear(), pickerMonth.getMonth() - 1, 1); drawPicker(); });
  $("#dp-next").addEventListener("click", () => { pickerMonth = new Date(pickerMonth.getFullYear(), pickerMonth.getMonth() + 1, 1); drawPicker(); });
  document.addEventListener("mousedown", (ev) => {
    if (!picker.hidden && !ev.target.closest("#datepicker") && !ev.target.closest(".f-date")) closePicker();
  });

  // ------------------------------------------------------------ the side calendar's month arrows
  const mini = $("#mini");
  let miniMonth = (() => { const [y, m] = mini.dataset.month.split("-"); return new Date(+y, +m - 1, 1); })();
  function drawMini() {
    $("#mini-title").textContent = MONTHS[miniMonth.getMonth()] + " " + miniMonth.getFullYear();
    monthGrid($("#mini-grid"), miniMonth.getFullYear(), miniMonth.getMonth(), (dt) => {
      const a = document.createElement("a");
      a.href = "/r/" + mini.dataset.view + "/" + dt.getFullYear() + "/" + (dt.getMonth() + 1) + "/" + dt.getDate();
      if (isoDate(dt) === mini.dataset.today) a.classList.add("today");
      if (isoDate(dt) === mini.dataset.sel) a.classList.add("sel");
      return a;
    });
  }
  $("#mini-prev").addEventListener("click", () => { miniMonth = new Date(miniMonth.getFullYear(), miniMonth.getMonth() - 1, 1); drawMini(); });
  $("#mini-next").addEventListener("click", () => { miniMonth = new Date(miniMonth.getFullYear(), miniMonth.getMonth() + 1, 1); drawMini(); });

  // ------------------------------------------------------------ calendars: colour, delete
  $$(".cal-options").forEach(btn => {
    const menu = btn.parentElement.querySelector(".menu");
    btn.addEventListener("click", () => {  // fixed, beside the button: the sidebar scrolls and would clip it
      const r = btn.getBoundingClientRect();
      menu.style.left = r.left + "px"; menu.style.top = (r.bottom + 2) + "px";
    });
    wireMenu(btn, menu);
  });
  $$(".swatch-btn").forEach(b => b.addEventListener("click", () => {
    navPost("/do/calendars/" + b.dataset.calendar + "/color", { color: b.dataset.color });
  }));
  const calDel = $("#calDelete-backdrop");
  let calToDelete = null;
  $$(".cal-delete").forEach(b => b.addEventListener("click", () => {
    closeMenus();
    calToDelete = b.dataset.calendar;
    const unsub = b.textContent.trim() === "Unsubscribe";
    $("#calDelete-title").textContent = unsub ? "Unsubscribe from calendar" : "Delete calendar";
    $("#calDelete-text").textContent = unsub ? "You will no longer see " + b.dataset.name + "."
      : "Are you sure you want to delete " + b.dataset.name + "? You'll no longer have access to this calendar and its events.";
    $("#calDelete-ok").textContent = unsub ? "Unsubscribe" : "Delete calendar";
    calDel.hidden = false;
    $("#calDelete-ok").focus();
  }));
  $("#calDelete-cancel").addEventListener("click", () => { calDel.hidden = true; });
  $("#calDelete-dialog").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (calToDelete) navPost("/do/calendars/" + calToDelete + "/delete", {});
  });

  // ------------------------------------------------------------ drag and drop: an event to another time or day
  // (week and day views: the 15 minutes under the event's top edge; month view and the all-day row: the day,
  // keeping the time). A press that does not move is a click (the details).
  let drag = null, justDragged = false;
  $$(".event").forEach(b => {
    const data = JSON.parse(b.dataset.event);
    if (data.kind === "task") return;
    b.addEventListener("mousedown", (ev) => {
      if (ev.button !== 0) return;
      drag = { btn: b, data: data, x0: ev.clientX, y0: ev.clientY, moved: false,
        grabY: ev.clientY - b.getBoundingClientRect().top };
    });
  });
  document.addEventListener("mousemove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x0, dy = ev.clientY - drag.y0;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    if (!drag.moved) { drag.moved = true; drag.btn.classList.add("dragging"); closePopover(); }
    drag.btn.style.transform = "translate(" + dx + "px, " + dy + "px)";
    drag.btn.style.pointerEvents = "none";
    ev.preventDefault();
  });
  document.addEventListener("mouseup", (ev) => {
    if (!drag) return;
    const d = drag; drag = null;
    if (!d.moved) return;
    justDragged = true; setTimeout(() => { justDragged = false; }, 0);
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    d.btn.style.transform = ""; d.btn.style.pointerEvents = ""; d.btn.classList.remove("dragging");
    const payload = { occurrence: d.data.occurrence };
    const col = under && under.closest(".day-col");
    if (col && !d.data.allDay) {
      const top = ev.clientY - d.grabY - col.getBoundingClientRect().top;
      payload.date = col.dataset.date;
      payload.startTime = TIMES[Math.max(0, Math.min(95, Math.round(top / 12)))];  // 48 px an hour
    } else {
      const cell = under && (under.closest(".month-cell") || under.closest(".allday-cell") || under.closest(".day-col"));
      if (!cell) return;
      payload.date = cell.dataset.date;
    }
    navPost("/do/events/" + d.data.id + "/move", payload);
  });

  // clicking an empty slot of the week/day grid creates an event there (rounded down to the half hour)
  $$(".day-col").forEach(col => col.addEventListener("click", (ev) => {
    if (ev.target.closest(".event") || justDragged) return;
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
    if (ev.target.closest(".event") || ev.target.closest("a") || justDragged) return;
    openEditor(null, { date: cell.dataset.date });
  }));
})();

// GoMail client: selection, toolbar actions, menus, compose/reply with recipient chips, labels, snackbar.
// Every change goes to the server's JSON API; the page then reloads so what is shown is always the session state.
(function () {
  "use strict";
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const CONTACTS = JSON.parse($("#contacts-data").textContent);
  const EMAIL_RE = /^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$/;

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

  // Every change is a plain form POST that the click submits at once (a navigation), answered by a redirect to
  // `next`: what the page shows afterwards is always the session's state.
  function here() {
    const u = new URL(window.location.href);
    u.searchParams.delete("error"); u.searchParams.delete("draft");
    return u.pathname + u.search;
  }
  function navPost(url, data, next) {
    const f = document.createElement("form");
    f.method = "POST"; f.action = url; f.hidden = true;
    for (const [k, v] of [["payload", JSON.stringify(data)], ["next", next || here()]]) {
      const i = document.createElement("input"); i.type = "hidden"; i.name = k; i.value = v; f.appendChild(i);
    }
    document.body.appendChild(f);
    f.requestSubmit();  // a submit event: the client-side router takes it, as any form
  }

  const undoBtn = $("#snackbar-undo");
  if (undoBtn) undoBtn.addEventListener("click", () => navPost("/do/undo", {}));

  // ------------------------------------------------------------ selection (list pages)
  const toolbar = $(".toolbar");
  const folder = toolbar ? toolbar.dataset.folder : "";
  const emailId = toolbar ? toolbar.dataset.email : undefined;
  const selectAll = $("#select-all");
  let everything = false;  // "Select all N conversations in <folder>"

  function rowBoxes() { return $$(".row-cb"); }
  function selectedIds() { return $$(".row").filter(r => $(".row-cb", r).checked).map(r => r.dataset.id); }
  function refreshSelection() {
    const boxes = rowBoxes();
    const n = boxes.filter(b => b.checked).length;
    const tools = $(".sel-tools"), idle = $(".idle-tools");
    if (tools) tools.hidden = n === 0;
    if (idle) idle.hidden = n > 0;
    $$(".row").forEach(r => r.classList.toggle("selected", $(".row-cb", r).checked));
    if (selectAll) {
      selectAll.checked = n > 0 && n === boxes.length;
      selectAll.indeterminate = n > 0 && n < boxes.length;
    }
    const total = toolbar ? parseInt(toolbar.dataset.total || "0", 10) : 0;
    const all = n > 0 && n === boxes.length;
    if (!all) everything = false;
    const banner = $("#select-banner"), bannerAll = $("#select-banner-all");
    if (banner) banner.hidden = !(all && total > boxes.length && !everything);
    if (bannerAll) bannerAll.hidden = !(all && everything);
  }
  if (selectAll) {
    selectAll.addEventListener("change", () => {
      rowBoxes().forEach(b => { b.checked = selectAll.checked; });
      everything = false;
      refreshSelection();
    });
    rowBoxes().forEach(b => b.addEventListener("change", refreshSelection));
    const ev = $("#select-everything");
    if (ev) ev.addEventListener("click", () => { everything = true; refreshSelection(); });
    const clr = $("#clear-selection");
    if (clr) clr.addEventListener("click", () => {
      rowBoxes().forEach(b => { b.checked = false; }); everything = false; refreshSelection();
    });
    refreshSelection();
  }

  function target() {
    if (emailId) return { ids: [emailId] };
    if (everything) return { all: true, folder: folder, q: toolbar.dataset.query, label: toolbar.dataset.label };
    return { ids: selectedIds() };
  }
  function act(action, extra) {
    const t = target();
    if (!t.all && (!t.ids || t.ids.length === 0)) { showSnackbar("Select at least one conversation."); return; }
    let next = null;
    if (emailId && action !== "star" && action !== "unstar" && action !== "label") {
      const back = $(".toolbar a.icon-btn");
      next = back ? back.getAttribute("href") : "/";
    }
    navPost("/do/emails", Object.assign({ action: action }, t, extra || {}), next);
  }
  $$("[data-action]").forEach(b => b.addEventListener("click", () => act(b.dataset.action)));
  $$(".star").forEach(b => b.addEventListener("click", (ev) => {
    ev.preventDefault(); ev.stopPropagation();
    navPost("/do/emails", { action: b.classList.contains("on") ? "unstar" : "star", ids: [b.dataset.id] });
  }));

  // ------------------------------------------------------------ menus
  function closeMenus(except) { $$(".menu").forEach(m => { if (m !== except) m.hidden = true; }); }
  function wireMenu(buttonId, menuId, onPick) {
    const btn = $("#" + buttonId), menu = $("#" + menuId);
    if (!btn || !menu) return;
    btn.addEventListener("click", (ev) => { ev.stopPropagation(); closeMenus(menu); menu.hidden = !menu.hidden; });
    $$(".menu-item", menu).forEach(it => it.addEventListener("click", () => { menu.hidden = true; onPick(it); }));
  }
  wireMenu("snooze-open", "snooze-menu", it => {
    if (it.classList.contains("snooze-custom")) askWhen("snooze", (day, time) => act("snooze", { untilDate: day, untilTime: time }));
    else act("snooze", { until: it.dataset.until });
  });

  // ------------------------------------------------------------ row hover actions (Gmail's, on that one email)
  $$("[data-row-action]").forEach(b => b.addEventListener("click", (ev) => {
    ev.preventDefault(); ev.stopPropagation();
    navPost("/do/emails", { action: b.dataset.rowAction, ids: [b.closest(".row-actions").dataset.id] });
  }));
  const rowSnoozeMenu = $("#row-snooze-menu");
  let rowSnoozeId = null;
  $$(".row-snooze").forEach(b => b.addEventListener("click", (ev) => {
    ev.preventDefault(); ev.stopPropagation();
    closeMenus(rowSnoozeMenu);
    rowSnoozeId = b.closest(".row-actions").dataset.id;
    const r = b.getBoundingClientRect();
    rowSnoozeMenu.style.top = r.bottom + "px";
    rowSnoozeMenu.style.left = Math.max(0, r.right - 220) + "px";
    rowSnoozeMenu.hidden = false;
  }));
  if (rowSnoozeMenu) $$(".menu-item", rowSnoozeMenu).forEach(it => it.addEventListener("click", (ev) => {
    ev.stopPropagation();
    rowSnoozeMenu.hidden = true;
    const id = rowSnoozeId;
    if (!id) return;
    if (it.classList.contains("snooze-custom")) {
      askWhen("snooze", (day, time) => navPost("/do/emails", { action: "snooze", ids: [id], untilDate: day, untilTime: time }));
    } else navPost("/do/emails", { action: "snooze", ids: [id], until: it.dataset.until });
  }));
  wireMenu("labels-open", "labels-menu", it => act("label", { label: it.dataset.label }));
  document.addEventListener("click", (ev) => { if (!ev.target.closest(".menu")) closeMenus(); });

  // ------------------------------------------------------------ date & time dialog (custom snooze, pick date & time)
  const whenDialog = $("#when-dialog");
  let whenDone = null;
  function askWhen(mode, done) {
    closeMenus();
    whenDone = done;
    const title = mode === "schedule" ? "Pick date & time" : "Select date and time";
    $("#when-title").textContent = title;
    $(".modal", whenDialog).setAttribute("aria-label", title);
    $("#when-save").textContent = mode === "schedule" ? "Schedule send" : "Save";
    $("#when-error").textContent = "";
    whenDialog.hidden = false;
    $("#when-date").focus();
  }
  function closeWhen() { whenDialog.hidden = true; whenDone = null; }
  $("#when-cancel").addEventListener("click", closeWhen);
  $("#when-save").addEventListener("click", () => {
    const day = $("#when-date").value.trim(), time = $("#when-time").value.trim();
    if (!day || !time) { $("#when-error").textContent = "Enter a date and a time."; return; }
    const done = whenDone; closeWhen(); if (done) done(day, time);
  });

  // ------------------------------------------------------------ schedule send (Send's arrow -> Schedule send)
  const scheduleDialog = $("#schedule-dialog");
  let scheduleData = null;  // returns the message to schedule, or null (it shows why)
  function closeSchedule() { scheduleDialog.hidden = true; }
  $$(".send-more").forEach(b => b.addEventListener("click", (ev) => {
    ev.stopPropagation();
    const menu = $(".send-menu", b.closest(".send-group"));
    closeMenus(menu); menu.hidden = !menu.hidden;
  }));
  function wireSchedule(item, dataFn) {
    item.addEventListener("click", (ev) => {
      ev.stopPropagation(); closeMenus();
      if (!dataFn()) return;
      scheduleData = dataFn; scheduleDialog.hidden = false;
    });
  }
  $$("[data-when]", scheduleDialog).forEach(b => b.addEventListener("click", () => {
    const d = scheduleData && scheduleData(); closeSchedule();
    if (d) navPost("/do/schedule", Object.assign(d, { sendAt: b.dataset.when }));
  }));
  $("#schedule-pick").addEventListener("click", () => {
    const fn = scheduleData; closeSchedule();
    askWhen("schedule", (day, time) => {
      const d = fn && fn();
      if (d) navPost("/do/schedule", Object.assign(d, { sendAtDate: day, sendAtTime: time }));
    });
  });
  $("#schedule-cancel").addEventListener("click", closeSchedule);

  // ------------------------------------------------------------ recipient chips with suggestions
  const suggest = $("#suggest");
  let suggestFor = null, suggestItems = [], suggestIndex = 0;

  function addChip(row, email, name) {
    const chips = $(".chips", row);
    if ($$(".chip", chips).some(c => c.dataset.email === email)) return;
    const chip = document.createElement("span");
    chip.className = "chip"; chip.dataset.email = email;
    chip.title = email;
    chip.appendChild(document.createTextNode(name || email));
    const x = document.createElement("button");
    x.type = "button"; x.className = "chip-x"; x.setAttribute("aria-label", "Remove " + (name || email)); x.title = "Remove " + (name || email);
    x.textContent = "×";
    x.addEventListener("click", () => chip.remove());
    chip.appendChild(x);
    chips.appendChild(chip);
  }
  function hideSuggest() { suggest.hidden = true; suggestFor = null; suggestItems = []; }
  function renderSuggest(input) {
    const q = input.value.trim().toLowerCase();
    if (!q) { hideSuggest(); return; }
    suggestItems = CONTACTS.filter(c => c.name.toLowerCase().includes(q) || c.email.includes(q)).slice(0, 6);
    if (!suggestItems.length) { hideSuggest(); return; }
    suggestFor = input; suggestIndex = 0;
    suggest.innerHTML = "";
    suggestItems.forEach((c, i) => {
      const li = document.createElement("li");
      li.setAttribute("role", "option");
      li.setAttribute("aria-label", c.name + " <" + c.email + ">");
      li.className = "suggest-item" + (i === suggestIndex ? " active" : "");
      li.setAttribute("aria-selected", i === suggestIndex ? "true" : "false");
      li.innerHTML = '<span class="avatar small"></span><span><b></b><br><span class="sub"></span></span>';
      $(".avatar", li).textContent = c.name[0];
      $("b", li).textContent = c.name;
      $(".sub", li).textContent = c.email;
      li.addEventListener("mousedown", (ev) => { ev.preventDefault(); pick(i); });
      suggest.appendChild(li);
    });
    const r = input.getBoundingClientRect();
    suggest.style.left = r.left + "px"; suggest.style.top = (r.bottom + 2) + "px";
    suggest.hidden = false;
  }
  function pick(i) {
    const input = suggestFor, c = suggestItems[i];
    if (!input || !c) return;
    addChip(input.closest(".recip-row"), c.email, c.name);
    input.value = ""; hideSuggest(); input.focus();
  }
  function commitText(input) {
    const v = input.value.trim().replace(/[,;]$/, "");
    if (v && EMAIL_RE.test(v)) { addChip(input.closest(".recip-row"), v.toLowerCase(), null); input.value = ""; return true; }
    return false;
  }
  $$(".recip-input").forEach(input => {
    input.addEventListener("input", () => {
      if (/[,;]$/.test(input.value)) { if (!(suggestFor === input && suggestItems.length && (pick(suggestIndex), true))) commitText(input); return; }
      renderSuggest(input);
    });
    input.addEventListener("keydown", (ev) => {
      const open = suggestFor === input && !suggest.hidden && suggestItems.length;
      if (ev.key === "ArrowDown" && open) { ev.preventDefault(); suggestIndex = (suggestIndex + 1) % suggestItems.length; markActive(); }
      else if (ev.key === "ArrowUp" && open) { ev.preventDefault(); suggestIndex = (suggestIndex + suggestItems.length - 1) % suggestItems.length; markActive(); }
      else if (ev.key === "Enter" || ev.key === "Tab") {
        if (open) { if (ev.key === "Enter") ev.preventDefault(); pick(suggestIndex); }
        else if (commitText(input) && ev.key === "Enter") ev.preventDefault();
        else if (ev.key === "Enter") ev.preventDefault();
      } else if (ev.key === "Escape") { hideSuggest(); }
      else if (ev.key === "Backspace" && !input.value) {
        const chips = $$(".chip", input.closest(".recip-row")); if (chips.length) chips[chips.length - 1].remove();
      }
    });
    // leaving the field closes its suggestions at once (a pick is a mousedown that keeps the focus, above): a page
    // read right after the next action never shows a list that is about to close
    input.addEventListener("blur", () => { if (suggestFor === input) hideSuggest(); commitText(input); });
  });
  function markActive() {
    $$(".suggest-item", suggest).forEach((li, i) => {
      li.classList.toggle("active", i === suggestIndex); li.setAttribute("aria-selected", i === suggestIndex ? "true" : "false");
    });
  }
  function checkRecipients(lists) {  // the server's rule, checked here so the dialog can say what is wrong
    const all = [].concat(...lists);
    if (!all.length) return "Please specify at least one recipient.";
    const bad = all.find(a => !EMAIL_RE.test((/<([^>]+)>/.exec(a) || [null, a])[1].trim()));
    return bad ? 'The address "' + bad + '" was not recognized. Please make sure that all addresses are properly formed.' : "";
  }
  function recipients(row) {
    if (!row || row.hidden) return [];
    const out = $$(".chip", row).map(c => c.dataset.email);
    const rest = $(".recip-input", row).value.trim();
    if (rest) out.push(...rest.split(/[,;]/).map(s => s.trim()).filter(Boolean));
    return out;
  }

  // ------------------------------------------------------------ compose
  const compose = $("#compose");
  function openCompose() { compose.hidden = false; $("#compose-to").focus(); }
  function resetCompose() {
    $$(".chip", compose).forEach(c => c.remove());
    $$("input, textarea", compose).forEach(i => { i.value = ""; });
    $$(".recip-row[data-field=cc], .recip-row[data-field=bcc]", compose).forEach(r => { r.hidden = true; });
    $("#compose-error").textContent = "";
  }
  let draftId = null;  // set when a saved draft is open in the window
  function composeData() {
    return {
      to: recipients($(".recip-row[data-field=to]", compose)), cc: recipients($(".recip-row[data-field=cc]", compose)),
      bcc: recipients($(".recip-row[data-field=bcc]", compose)), subject: $("#compose-subject").value,
      body: $("#compose-body").value, draftId: draftId,
    };
  }
  $("#compose-open").addEventListener("click", openCompose);
  $("#compose-close").addEventListener("click", () => {  // Gmail keeps what was written as a draft
    const d = composeData();
    const empty = !d.to.length && !d.cc.length && !d.bcc.length && !d.subject.trim() && !d.body.trim();
    if (empty && !draftId) { compose.hidden = true; return; }
    navPost("/do/draft", d);
  });
  $("#compose-discard").addEventListener("click", () => {
    if (draftId) { navPost("/do/discard", { draftId: draftId }); return; }
    resetCompose(); compose.hidden = true; showSnackbar("Draft discarded");
  });
  $("#cc-open").addEventListener("click", () => { const r = $(".recip-row[data-field=cc]", compose); r.hidden = false; $("input", r).focus(); });
  $("#bcc-open").addEventListener("click", () => { const r = $(".recip-row[data-field=bcc]", compose); r.hidden = false; $("input", r).focus(); });
  // Gmail asks before sending a message with neither a subject nor a body
  const emptyDialog = $("#empty-dialog");
  let pendingSend = null;
  function closeEmpty() { emptyDialog.hidden = true; pendingSend = null; }
  $("#empty-cancel").addEventListener("click", closeEmpty);
  $("#empty-ok").addEventListener("click", () => { const d = pendingSend; closeEmpty(); if (d) navPost("/do/send", d); });
  $("#compose-send").addEventListener("click", () => {
    const data = composeData();
    const problem = checkRecipients([data.to, data.cc, data.bcc]);
    if (problem) { $("#compose-error").textContent = problem; return; }
    if (!data.subject.trim() && !data.body.trim()) {
      pendingSend = data; emptyDialog.hidden = false; $("#empty-ok").focus(); return;
    }
    navPost("/do/send", data);
  });
  wireSchedule($(".schedule-open", compose), () => {
    const data = composeData();
    const problem = checkRecipients([data.to, data.cc, data.bcc]);
    if (problem) { $("#compose-error").textContent = problem; return null; }
    return data;
  });
  const saved = JSON.parse($("#open-draft").textContent);
  if (saved) {  // a draft opened from the Drafts folder, or a compose link (?view=cm: no draft yet)
    draftId = saved.id;
    for (const field of ["to", "cc", "bcc"]) {
      const row = $(".recip-row[data-field=" + field + "]", compose);
      if (saved[field].length) row.hidden = false;
      saved[field].forEach(a => { const c = CONTACTS.find(x => x.email === a); addChip(row, a, c ? c.name : null); });
    }
    $("#compose-subject").value = saved.subject; $("#compose-body").value = saved.body;
    compose.hidden = !!saved.hidden;  // REAL-local's ?hidden=1: the filled window waits for Compose
    if (saved.typing && !saved.hidden) {  // REAL-local's ?typing=: To holds the text as typed, its suggestions open
      const to = $("#compose-to"); to.focus(); to.value = saved.typing; renderSuggest(to);
    }
  }

  // ------------------------------------------------------------ reply / forward (email page)
  const replyBox = $("#reply-box");
  if (replyBox) {
    let mode = "reply";
    const open = (m) => {
      mode = m; replyBox.hidden = false; $("#msg-actions").hidden = true;
      replyBox.setAttribute("aria-label", m === "forward" ? "Forward" : "Reply");
      const fwdRow = $(".recip-row[data-field=fwd]", replyBox);
      fwdRow.hidden = m !== "forward";
      $("#forward-header").hidden = m !== "forward";
      $(".reply-to", replyBox).hidden = m === "forward";
      (m === "forward" ? $("#forward-to") : $("#reply-body")).focus();
    };
    $("#reply-open").addEventListener("click", () => open("reply"));
    $("#reply-top").addEventListener("click", () => open("reply"));
    $("#forward-open").addEventListener("click", () => open("forward"));
    $("#reply-discard").addEventListener("click", () => {
      replyBox.hidden = true; $("#msg-actions").hidden = false; $("#reply-body").value = "";
    });
    const replyData = () => {
      const subj = replyBox.dataset.subject || "";
      let data;
      if (mode === "forward") {  // the server adds Gmail's From/Date/Subject/To block and the original
        data = { to: recipients($(".recip-row[data-field=fwd]", replyBox)),
                 subject: /^fwd:/i.test(subj) ? subj : "Fwd: " + subj,
                 body: $("#reply-body").value, forwardOf: replyBox.dataset.id };
      } else {
        data = { to: replyBox.dataset.to.split(","), subject: /^re:/i.test(subj) ? subj : "Re: " + subj,
                 body: $("#reply-body").value, replyTo: replyBox.dataset.id };
      }
      const problem = checkRecipients([data.to]);
      if (problem) { $("#reply-error").textContent = problem; return null; }
      return data;
    };
    $("#reply-send").addEventListener("click", () => { const d = replyData(); if (d) navPost("/do/send", d); });
    wireSchedule($(".schedule-open", replyBox), replyData);
  }

  // ------------------------------------------------------------ labels
  const labelDialog = $("#label-dialog");
  $("#label-create-open").addEventListener("click", () => {
    labelDialog.hidden = false; $("#label-error").textContent = ""; $("#label-name").value = ""; $("#label-name").focus();
  });
  $("#label-cancel").addEventListener("click", () => { labelDialog.hidden = true; });
  function createLabel() {
    const name = $("#label-name").value.trim();
    if (!name) { $("#label-error").textContent = "Please enter a label name."; return; }
    navPost("/do/labels", { label: name });
  }
  $("#label-create").addEventListener("click", createLabel);
  $("#label-name").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); createLabel(); } });

  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") {
      closeMenus(); hideSuggest(); if (!labelDialog.hidden) labelDialog.hidden = true;
      if (!emptyDialog.hidden) closeEmpty();
      if (!whenDialog.hidden) closeWhen();
      if (!scheduleDialog.hidden) closeSchedule();
    }
  });
})();

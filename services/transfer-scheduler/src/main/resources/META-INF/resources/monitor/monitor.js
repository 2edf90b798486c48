// Ferry's transfer monitor: reads transfer-scheduler's own API with the user's bearer token and draws the answers
// itself (SVG, no libraries). Served with a policy that allows scripts from the service only (application.properties),
// so the page has no inline script or style; every name and reason is written as text, never parsed as markup.
"use strict";

// API paths this page reads (Ferry's own views, not FTS3's shapes on /optimizer and /config/*); only this table names them.
const API = {
  decisions: "/optimizer/decisions",
  evolution: "/optimizer/evolution",
  endpoints: "/endpoints",
  links: "/links",
  shares: "/shares",
  probes: "/monitor/api/probes",
};
const TOKEN_KEY = "ferry.monitor.token";
const QUEUED = ["SUBMITTED", "STAGING", "READY"];
const TERMINAL_JOB = ["FINISHED", "FINISHEDDIRTY", "FAILED", "CANCELED"];
const SVG = "http://www.w3.org/2000/svg";
let pageAbort = new AbortController();

// ---- units --------------------------------------------------------------------------------------------------
// Sizes in binary units (GiB, as storage quotas are), rates in decimal ones (MB/s, as links are quoted).
function scaled(v, base, units) {
  if (v == null || Number.isNaN(v)) return "–";
  let i = 0;
  while (Math.abs(v) >= base && i < units.length - 1) { v /= base; i++; }
  return (i === 0 || v >= 100 ? v.toFixed(0) : v.toFixed(1)) + " " + units[i];
}
const fmtBytes = (b) => scaled(b, 1024, ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]);
const fmtRate = (bps) => scaled(bps, 1000, ["B/s", "kB/s", "MB/s", "GB/s", "TB/s"]);
const fmtPercent = (r) => r == null ? "–" : (100 * r).toFixed(r >= 0.995 || r === 0 ? 0 : 1) + " %";
function fmtDuration(seconds) {
  if (seconds == null || Number.isNaN(seconds)) return "–";
  const s = Math.round(seconds);
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
  if (s < 86400) return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
  return Math.floor(s / 86400) + " d " + Math.floor((s % 86400) / 3600) + " h";
}
// FTS3's times carry no zone; they are UTC.
function parseTime(t) {
  if (!t) return null;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t : t + "Z");
}
function fmtTime(t) {
  const d = parseTime(t);
  return d ? d.toISOString().replace("T", " ").slice(0, 19) + " UTC" : "–";
}
function fmtAgo(t) {
  const d = parseTime(t);
  return d ? fmtDuration((Date.now() - d.getTime()) / 1000) + " ago" : "–";
}

// ---- DOM, always from text --------------------------------------------------------------------------------
function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}
function link(text, href) {
  const a = el("a", text);
  a.href = href;
  return a;
}
function section(title, ...children) {
  const s = el("section");
  s.append(el("h2", title), ...children);
  return s;
}
// columns: [heading, value(row) -> text or Node, "text" for left-aligned]
function table(columns, rows, id) {
  const t = el("table");
  if (id) t.id = id;
  const head = el("tr");
  columns.forEach(([h, , cls]) => head.append(el("th", h, cls)));
  t.append(el("thead"));
  t.tHead.append(head);
  const body = el("tbody");
  rows.forEach((r) => body.append(tableRow(columns, r)));
  t.append(body);
  return t;
}
function tableRow(columns, r) {
  const tr = el("tr");
  columns.forEach(([, value, cls]) => {
    const v = value(r);
    const td = el("td", null, cls);
    if (v instanceof Node) td.append(v); else td.textContent = v == null ? "–" : String(v);
    tr.append(td);
  });
  return tr;
}
function stateText(s) {
  return el("span", s, "state state-" + s);
}
function select(id, options, value) {
  const s = el("select");
  s.id = id;
  options.forEach(([v, label]) => {
    const o = el("option", label);
    o.value = v;
    s.append(o);
  });
  s.value = value;
  return s;
}
function labelled(text, input) {
  const l = el("label", text);
  l.append(input);
  return l;
}
function status(text, isError) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.className = isError ? "error" : "";
}

// ---- the API with the user's token ------------------------------------------------------------------------
// The token lives in sessionStorage (this tab only, gone when it closes) and travels in the Authorization header,
// never in a URL, so no access log or history keeps it.
const token = () => sessionStorage.getItem(TOKEN_KEY);
function headers(extra) {
  const h = Object.assign({ Accept: "application/json" }, extra || {});
  if (token()) h.Authorization = "Bearer " + token();
  return h;
}
class ApiError extends Error {}
async function api(path) {
  const r = await fetch(path, { headers: headers(), signal: pageAbort.signal });
  if (r.status === 401) throw new ApiError("sign in with a bearer token to read " + path);
  if (!r.ok) {
    let detail = "";
    try { const p = await r.json(); detail = p.detail || p.title || ""; } catch (e) { /* not problem+json */ }
    throw new ApiError(path + " answered " + r.status + (detail ? ": " + detail : ""));
  }
  return r.json();
}

// Server-Sent Events with the Authorization header: EventSource cannot send one, so the stream is read with
// fetch(). Calls onEvent for each event's JSON; resolves when the server ends the stream.
async function followEvents(path, onEvent, signal) {
  const r = await fetch(path, { headers: headers({ Accept: "text/event-stream" }), signal });
  if (!r.ok) throw new ApiError(path + " answered " + r.status);
  const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n");
      if (data) onEvent(JSON.parse(data));
    }
  }
}

// ---- pages ------------------------------------------------------------------------------------------------
function windowSelect(value) {
  return select("window", [["1h", "last hour"], ["6h", "6 hours"], ["24h", "24 hours"], ["7d", "7 days"], ["30d", "30 days"]], value);
}
function countsColumns() {
  return [
    ["active", (r) => r.counts.active], ["queued", (r) => r.counts.queued], ["finished", (r) => r.counts.finished],
    ["failed", (r) => r.counts.failed], ["canceled", (r) => r.counts.canceled], ["success", (r) => fmtPercent(r.counts.success_rate)],
    ["moved", (r) => fmtBytes(r.counts.bytes_finished)], ["throughput", (r) => fmtRate(r.counts.bytes_per_second)],
    ["per file", (r) => fmtRate(r.counts.avg_file_throughput)],
  ];
}
function card(label, value) {
  const c = el("div", label, "card");
  c.prepend(el("b", value));
  return c;
}

async function overviewPage(params) {
  const win = params.get("window") || "1h";
  const o = await api("/monitor/api/overview?window=" + encodeURIComponent(win));
  const picker = windowSelect(win);
  picker.addEventListener("change", () => { location.hash = "#/overview?window=" + picker.value; });
  const t = o.totals;
  const cards = el("div", null, "cards");
  cards.append(card("active", t.active), card("queued", t.queued), card("finished", t.finished), card("failed", t.failed),
    card("success rate", fmtPercent(t.success_rate)), card("moved", fmtBytes(t.bytes_finished)), card("throughput", fmtRate(t.bytes_per_second)));
  const linkCell = (r) => link(r.source_se + " → " + r.dest_se, "#/jobs?source_se=" + encodeURIComponent(r.source_se)
    + "&dest_se=" + encodeURIComponent(r.dest_se) + "&state=any&hours=" + Math.ceil(o.window_seconds / 3600));
  const filters = el("div", null, "filters");
  filters.append(labelled("window", picker), el("span", "finished, failed and rates since " + fmtTime(o.since) + "; active and queued now"));
  return [
    section("All transfers you may see", filters, cards),
    section("Per link", table([["link", linkCell, "text"], ...countsColumns()], o.links, "links")),
    section("Per VO", table([["VO", (r) => link(r.vo, "#/jobs?vo=" + encodeURIComponent(r.vo) + "&state=any"), "text"], ...countsColumns()], o.vos, "vos")),
  ];
}

const JOB_STATES = ["SUBMITTED", "STAGING", "ACTIVE", "FINISHED", "FINISHEDDIRTY", "FAILED", "CANCELED"];

async function jobsPage(params) {
  const state = params.get("state") || "";
  const query = new URLSearchParams({ limit: "200" });
  if (state === "any") query.set("state_in", JOB_STATES.join(","));
  else if (state) query.set("state_in", state);
  for (const [from, to] of [["vo", "vo_name"], ["source_se", "source_se"], ["dest_se", "dest_se"]]) {
    if (params.get(from)) query.set(to, params.get(from));
  }
  if (params.get("hours")) query.set("time_window", params.get("hours"));
  const jobs = await api("/jobs?" + query);

  const stateInput = select("f-state", [["", "unfinished"], ["any", "any state"], ...JOB_STATES.map((s) => [s, s])], state);
  const inputs = { vo: el("input"), source_se: el("input"), dest_se: el("input"), hours: el("input") };
  Object.entries(inputs).forEach(([k, i]) => { i.id = "f-" + k; i.value = params.get(k) || ""; i.size = 14; });
  inputs.hours.placeholder = "e.g. 6";
  const apply = el("button", "Apply");
  const filters = el("form", null, "filters");
  filters.append(labelled("state", stateInput), labelled("VO (administrators)", inputs.vo), labelled("source SE", inputs.source_se),
    labelled("destination SE", inputs.dest_se), labelled("finished within (hours)", inputs.hours), apply);
  filters.addEventListener("submit", (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    if (stateInput.value) q.set("state", stateInput.value);
    Object.entries(inputs).forEach(([k, i]) => { if (i.value.trim()) q.set(k, i.value.trim()); });
    location.hash = "#/jobs?" + q;
  });
  const rows = table([
    ["job", (j) => link(j.job_id, "#/job/" + j.job_id), "text"], ["state", (j) => stateText(j.job_state), "text"],
    ["VO", (j) => j.vo_name, "text"], ["link", (j) => (j.source_se || "several") + " → " + (j.dest_se || "several"), "text"],
    ["submitted", (j) => fmtTime(j.submit_time)], ["finished", (j) => j.job_finished ? fmtTime(j.job_finished) : "–"],
    ["took", (j) => j.job_finished ? fmtDuration((parseTime(j.job_finished) - parseTime(j.submit_time)) / 1000) : fmtAgo(j.submit_time)],
    ["reason", (j) => j.reason, "reason"],
  ], jobs, "jobs");
  return [section("Jobs (" + jobs.length + (jobs.length === 200 ? ", the newest 200" : "") + ")", filters, rows)];
}

// The job page draws the job once, then applies its event stream: each event moves one file to its new state at
// once; sizes and rates, which events do not carry, are read again shortly after.
async function jobPage(params, id) {
  const [job, files] = await Promise.all([api("/jobs/" + encodeURIComponent(id)), api("/jobs/" + encodeURIComponent(id) + "/files")]);
  const byId = new Map(files.map((f) => [f.file_id, f]));
  const header = el("div", null, "cards");
  const summary = el("div");
  const bar = el("div", null, "bar");
  const body = el("tbody");
  const facts = el("div");
  const liveNote = el("p", "connecting to the job's event stream…");
  liveNote.id = "live";
  const page = document.getElementById("page");
  page.dataset.events = "0";

  const fileColumns = [
    ["file", (f) => f.file_id], ["state", (f) => stateText(f.file_state), "text"], ["source", (f) => f.source_surl, "text"],
    ["destination", (f) => f.dest_surl, "text"], ["size", (f) => fmtBytes(f.filesize)], ["moved", (f) => fmtBytes(f.bytes_transferred)],
    ["rate", (f) => fmtRate(f.throughput_bytes_per_s)],
    ["took", (f) => f.start_time && f.finish_time ? fmtDuration((parseTime(f.finish_time) - parseTime(f.start_time)) / 1000) : "–"],
    ["attempts", (f) => retriesButton(f)], ["error", (f) => f.error_code, "text"], ["reason", (f) => f.reason, "reason"],
  ];
  function retriesButton(f) {
    if (!f.retry) return "1";
    const b = el("button", (f.retry + 1) + " (show retries)", "link");
    b.addEventListener("click", async () => {
      let retries;
      try {
        retries = await api("/jobs/" + encodeURIComponent(id) + "/files/" + f.file_id + "/retries");
      } catch (e) {
        status(e.message, true);
        return;
      }
      const row = b.closest("tr");
      const detail = el("tr");
      const cell = el("td");
      cell.colSpan = fileColumns.length;
      cell.append(table([["attempt", (r) => r.attempt], ["when", (r) => fmtTime(r.datetime)], ["error", (r) => r.error_code, "text"],
        ["phase", (r) => r.error_phase, "text"], ["reason", (r) => r.reason, "reason"]], retries));
      detail.append(cell);
      row.after(detail);
      b.disabled = true;
    });
    return b;
  }
  function draw() {
    const list = [...byId.values()].sort((a, b) => a.file_index - b.file_index);
    const counts = {};
    list.forEach((f) => { counts[f.file_state] = (counts[f.file_state] || 0) + 1; });
    const done = list.reduce((n, f) => n + (f.file_state === "FINISHED" ? (f.bytes_transferred || f.filesize || 0) : 0), 0);
    const total = list.reduce((n, f) => n + (f.filesize || 0), 0);
    const rates = list.filter((f) => f.file_state === "FINISHED" && f.throughput_bytes_per_s);
    header.replaceChildren(card("state", job.job_state), card("VO", job.vo_name), card("files", list.length),
      card("moved", fmtBytes(done) + (total ? " of " + fmtBytes(total) : "")),
      card("per-file rate", rates.length ? fmtRate(rates.reduce((n, f) => n + f.throughput_bytes_per_s, 0) / rates.length) : "–"),
      card(job.job_finished ? "took" : "submitted", job.job_finished
        ? fmtDuration((parseTime(job.job_finished) - parseTime(job.submit_time)) / 1000) : fmtAgo(job.submit_time)));
    header.firstChild.firstChild.className = "state-" + job.job_state;
    facts.replaceChildren(table([["submitted", (j) => fmtTime(j.submit_time)], ["finished", (j) => j.job_finished ? fmtTime(j.job_finished) : "–"],
      ["link", (j) => (j.source_se || "several") + " → " + (j.dest_se || "several"), "text"], ["priority", (j) => j.priority],
      ["retries allowed", (j) => j.retry], ["checksum", (j) => j.verify_checksum, "text"], ["submitter", (j) => j.user_dn, "text"],
      ["reason", (j) => j.reason, "reason"]], [job]));
    summary.textContent = Object.entries(counts).map(([s, n]) => n + " " + s).join(", ");
    summary.id = "file-states";
    bar.replaceChildren(...["FINISHED", "FAILED", "CANCELED", "ACTIVE", "queued"].map((s) => {
      const n = s === "queued" ? QUEUED.reduce((m, q) => m + (counts[q] || 0), 0) : counts[s] || 0;
      const seg = el("span", null, "seg-" + s);
      seg.style.width = (100 * n / Math.max(1, list.length)) + "%";
      seg.title = n + " " + s;
      return seg;
    }));
    body.replaceChildren(...list.map((f) => { const tr = tableRow(fileColumns, f); tr.dataset.file = f.file_id; tr.dataset.state = f.file_state;
      tr.dataset.bytes = f.bytes_transferred == null ? "" : String(f.bytes_transferred); return tr; }));
    page.dataset.jobState = job.job_state;
  }
  let refetch = null;
  function applyEvent(e) {
    page.dataset.events = String(Number(page.dataset.events) + 1);
    const f = byId.get(e.file_id);
    // a finished file's event says "finished"; its reason column stays for why a file did not
    if (f) { f.file_state = e.file_state; f.reason = e.file_state === "FINISHED" ? null : e.reason; }
    job.job_state = e.job_state || job.job_state;
    draw();
    clearTimeout(refetch);
    refetch = setTimeout(async () => {
      try {
        const [j, fresh] = await Promise.all([api("/jobs/" + encodeURIComponent(id)), api("/jobs/" + encodeURIComponent(id) + "/files")]);
        Object.assign(job, j);
        fresh.forEach((x) => byId.set(x.file_id, x));
        draw();
      } catch (e) {
        if (e.name !== "AbortError") status(e.message, true);
      }
    }, 400);
  }
  async function live() {
    const signal = pageAbort.signal;
    while (!signal.aborted) {
      try {
        liveNote.textContent = "live: following the job's event stream";
        await followEvents("/jobs/" + encodeURIComponent(id) + "/events", applyEvent, signal);
      } catch (e) {
        if (signal.aborted) return;
        liveNote.textContent = "event stream interrupted (" + e.message + "); reconnecting";
      }
      if (TERMINAL_JOB.includes(job.job_state)) { liveNote.textContent = "the job is over: " + job.job_state; return; }
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  draw();
  const files_ = el("table");
  files_.id = "files";
  const head = el("tr");
  fileColumns.forEach(([h, , cls]) => head.append(el("th", h, cls)));
  files_.append(el("thead"), body);
  files_.tHead.append(head);
  live();
  return [section("Job " + id, header, facts, liveNote), section("Files", summary, bar, files_)];
}

async function errorsPage(params) {
  const win = params.get("window") || "24h";
  const answer = await api("/monitor/api/errors?window=" + encodeURIComponent(win));
  const picker = windowSelect(win);
  picker.addEventListener("change", () => { location.hash = "#/errors?window=" + picker.value; });
  const examples = (g) => {
    const list = el("div");
    g.examples.forEach((x) => {
      const line = el("div", null, "reason");
      line.append(link(x.job_id.slice(0, 8) + "…/" + x.file_id, "#/job/" + x.job_id), el("span", " " + fmtAgo(x.at) + ": " + x.reason));
      list.append(line);
    });
    return list;
  };
  const filters = el("div", null, "filters");
  filters.append(labelled("window", picker), el("span", "final failures and retried attempts, most frequent first"));
  return [section("Errors by link and error code", filters, table([
    ["link", (g) => g.source_se + " → " + g.dest_se, "text"], ["error code", (g) => g.error_code, "text"], ["count", (g) => g.count],
    ["last seen", (g) => fmtAgo(g.last_seen)], ["latest examples", examples, "reason"]], answer.groups, "errors"))];
}

// An empty SVG chart of W × H units and add(tag, attributes, text), which appends an element to it.
function svgChart(W, H, className) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", className);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
    if (text != null) e.textContent = text;
    svg.append(e);
    return e;
  };
  return { svg, add };
}

// A link's decisions over time: the active target (solid, left axis) and the throughput it saw (dashed, right axis).
function decisionChart(points) {
  const W = 900, H = 250, L = 50, R = 80, T = 15, B = 30;
  const { svg, add } = svgChart(W, H, "chart");
  svg.id = "decision-chart";
  const times = points.map((p) => parseTime(p.decided_at).getTime());
  const t0 = Math.min(...times), t1 = Math.max(t0 + 1000, ...times);
  // the active axis counts transfers: whole-number ticks, at most five
  const activeStep = Math.max(1, Math.ceil(Math.max(1, ...points.map((p) => Math.max(p.active, p.previous_active))) / 4));
  const maxActive = 4 * activeStep;
  const maxRate = Math.max(1, ...points.map((p) => Math.max(p.throughput_bytes_per_s, p.ema_throughput_bytes_per_s)));
  const x = (t) => L + (W - L - R) * (t - t0) / (t1 - t0);
  const yA = (a) => H - B - (H - T - B) * a / maxActive;
  const yR = (r) => H - B - (H - T - B) * r / maxRate;
  add("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" });
  add("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" });
  add("line", { x1: W - R, y1: T, x2: W - R, y2: H - B, class: "axis" });
  for (let i = 0; i <= 4; i++) {
    const f = i / 4;
    add("text", { x: L - 6, y: yA(activeStep * i) + 4, "text-anchor": "end" }, activeStep * i);
    add("text", { x: W - R + 6, y: yR(maxRate * f) + 4 }, fmtRate(maxRate * f));
    add("text", { x: x(t0 + (t1 - t0) * f), y: H - 10, "text-anchor": "middle" }, new Date(t0 + (t1 - t0) * f).toISOString().slice(11, 19));
  }
  add("text", { x: L, y: 10 }, "active target");
  add("text", { x: W - R, y: 10, "text-anchor": "end" }, "throughput seen (dashed)");
  let step = "";
  points.forEach((p, i) => {
    const px = x(times[i]);
    step += (i === 0 ? `M${px},${yA(p.previous_active)}` : "") + ` L${px},${yA(p.previous_active)} L${px},${yA(p.active)}`;
  });
  add("path", { d: step, class: "active" });
  add("path", { d: points.map((p, i) => (i ? "L" : "M") + x(times[i]) + "," + yR(p.ema_throughput_bytes_per_s)).join(" "), class: "rate" });
  svg.dataset.points = String(points.length);
  return svg;
}

async function optimizerPage(params) {
  const current = await api(API.decisions);
  const chosen = params.get("link") || (current[0] ? current[0].source_se + "|" + current[0].dest_se : "");
  const out = [section("Current decision per link", table([
    ["link", (d) => link(d.source_se + " → " + d.dest_se, "#/optimizer?link=" + encodeURIComponent(d.source_se + "|" + d.dest_se)), "text"],
    ["active target", (d) => d.active], ["was", (d) => d.previous_active], ["running", (d) => d.running], ["queued", (d) => d.queued],
    ["throughput", (d) => fmtRate(d.ema_throughput_bytes_per_s)], ["success", (d) => fmtPercent(d.success_rate)],
    ["decided", (d) => fmtAgo(d.decided_at)], ["why", (d) => d.rationale, "reason"]], current, "decisions"))];
  if (chosen) {
    const [source, dest] = chosen.split("|");
    const history = (await api(API.evolution + "?" + new URLSearchParams({ source_se: source, dest_se: dest, limit: "200" }))).reverse();
    out.push(section("Decisions over time: " + source + " → " + dest, history.length ? decisionChart(history) : el("p", "no decisions yet"),
      table([["decided", (d) => fmtTime(d.decided_at)], ["active", (d) => d.previous_active + " → " + d.active],
        ["throughput", (d) => fmtRate(d.throughput_bytes_per_s)], ["smoothed", (d) => fmtRate(d.ema_throughput_bytes_per_s)],
        ["success", (d) => fmtPercent(d.success_rate)], ["samples", (d) => d.samples], ["why", (d) => d.rationale, "reason"]],
      history.slice().reverse().slice(0, 50))));
  }
  return out;
}

// A probed link over the window: each probe run's file rate (dots, red when the run failed or did not start, drawn
// on the axis), the 12-hour average of the finished ones (solid, as SONAR plotted it), and the link's production:
// all its other files together per bin (dashed) and their mean per-file rate (dotted). One rate axis for all.
function probeChart(link, since, windowSeconds, binSeconds) {
  const W = 900, H = 250, L = 80, R = 20, T = 20, B = 30;
  const { svg, add } = svgChart(W, H, "chart probe-chart");
  const t0 = parseTime(since).getTime(), t1 = Math.max(t0 + 1000, Date.now());
  const rates = [1, ...link.runs.map((r) => Math.max(r.throughput_bytes_per_s || 0, r.average_12h_bytes_per_s || 0)),
    ...link.production.map((p) => Math.max(p.bytes_per_second || 0, p.avg_file_throughput || 0))];
  const maxRate = Math.max(...rates) * 1.1;
  const x = (t) => L + (W - L - R) * (t - t0) / (t1 - t0);
  const y = (r) => H - B - (H - T - B) * r / maxRate;
  add("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" });
  add("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" });
  for (let i = 0; i <= 4; i++) {
    const f = i / 4;
    add("text", { x: L - 6, y: y(maxRate * f) + 4, "text-anchor": "end" }, fmtRate(maxRate * f));
    const at = new Date(t0 + (t1 - t0) * f).toISOString();
    add("text", { x: x(t0 + (t1 - t0) * f), y: H - 10, "text-anchor": "middle" }, windowSeconds > 86400 ? at.slice(5, 16).replace("T", " ") : at.slice(11, 16));
  }
  add("text", { x: L, y: 12 }, "probe runs (dots), 12 h average (solid), production: link total (dashed), per file (dotted)");
  const line = (points, cls) => {
    if (points.length) add("path", { d: points.map(([t, r], i) => (i ? "L" : "M") + x(t) + "," + y(r)).join(" "), class: cls });
  };
  // production as steps, one per bin, so that a single bin shows too
  const steps = (points, value, cls) => {
    if (!points.length) return;
    add("path", { d: points.map((p) => { const t = parseTime(p.at).getTime(), e = Math.min(t1, t + binSeconds * 1000);
      return "M" + x(Math.max(t0, t)) + "," + y(value(p)) + " L" + x(e) + "," + y(value(p)); }).join(" "), class: cls });
  };
  steps(link.production, (p) => p.bytes_per_second, "production");
  steps(link.production.filter((p) => p.avg_file_throughput != null), (p) => p.avg_file_throughput, "production-file");
  const finished = link.runs.filter((r) => r.outcome === "FINISHED");
  line(finished.filter((r) => r.average_12h_bytes_per_s != null).map((r) => [parseTime(r.started_at).getTime(), r.average_12h_bytes_per_s]), "probe-average");
  link.runs.filter((r) => r.outcome !== "RUNNING").forEach((r) => {
    const ok = r.outcome === "FINISHED";
    const dot = add("circle", { cx: x(parseTime(r.started_at).getTime()), cy: y(ok ? r.throughput_bytes_per_s || 0 : 0), r: 3,
      class: ok ? "probe-run" : "probe-failed" });
    const title = document.createElementNS(SVG, "title");
    title.textContent = fmtTime(r.started_at) + ": " + r.outcome + (ok ? " " + fmtRate(r.throughput_bytes_per_s) : " " + (r.error || ""));
    dot.append(title);
  });
  svg.dataset.runs = String(link.runs.length);
  return svg;
}

async function probesPage(params) {
  const win = params.get("window") || "24h";
  const answer = await api(API.probes + "?window=" + encodeURIComponent(win));
  const picker = windowSelect(win);
  picker.addEventListener("change", () => { location.hash = "#/probes?window=" + picker.value; });
  const filters = el("div", null, "filters");
  filters.append(labelled("window", picker), el("span", "test transfers the scheduler runs itself (ferry probe add), beside each link's production since "
    + fmtTime(answer.since)));
  if (!answer.links.length) {
    return [section("Link probes", filters, el("p", "no probes: an administrator schedules them with ferry probe add SRC DST --size 1GB --every 30m"))];
  }
  const out = [section("Link probes", filters, table([
    ["link", (l) => l.source_se + " → " + l.dest_se, "text"], ["probes", (l) => l.probes.length],
    ["runs", (l) => l.runs.length], ["finished", (l) => l.runs.filter((r) => r.outcome === "FINISHED").length],
    ["12 h average", (l) => fmtRate(l.probes.map((p) => p.average_12h_bytes_per_s).find((v) => v != null))],
    ["production", (l) => fmtRate(l.production.reduce((n, p) => n + p.bytes_per_second * answer.bin_seconds, 0) / answer.window_seconds)],
  ], answer.links, "probe-links"))];
  answer.links.forEach((l) => {
    out.push(section("Probes " + l.source_se + " → " + l.dest_se, probeChart(l, answer.since, answer.window_seconds, answer.bin_seconds),
      table([["probe", (p) => p.probe_id], ["VO", (p) => p.vo, "text"], ["file", (p) => fmtBytes(p.file_size)],
        ["every", (p) => fmtDuration(p.interval_seconds)], ["enabled", (p) => p.enabled ? "yes" : "no"],
        ["runs (12 h)", (p) => p.runs_12h], ["finished (12 h)", (p) => p.finished_12h], ["average (12 h)", (p) => fmtRate(p.average_12h_bytes_per_s)],
        ["last run", (p) => p.last_run ? stateText(p.last_run.outcome) : "–", "text"],
        ["when", (p) => p.last_run ? fmtAgo(p.last_run.started_at) : "–"],
        ["why", (p) => p.last_run && p.last_run.outcome !== "FINISHED" ? p.last_run.error : null, "reason"]], l.probes),
      table([["started", (r) => fmtTime(r.started_at)], ["outcome", (r) => stateText(r.outcome), "text"],
        ["job", (r) => r.job_id ? link(r.job_id.slice(0, 8) + "…", "#/job/" + r.job_id) : "–", "text"],
        ["rate", (r) => fmtRate(r.throughput_bytes_per_s)], ["took", (r) => r.duration_seconds != null && r.duration_seconds < 10 ? r.duration_seconds.toFixed(1) + " s" : fmtDuration(r.duration_seconds)],
        ["12 h average", (r) => fmtRate(r.average_12h_bytes_per_s)], ["error", (r) => r.error_code, "text"], ["reason", (r) => r.error, "reason"]],
      l.runs.slice().reverse().slice(0, 20), "probe-runs-" + l.source_se + "-" + l.dest_se)));
  });
  return out;
}

async function configPage() {
  const [endpoints, links, shares] = await Promise.all([api(API.endpoints), api(API.links), api(API.shares)]);
  const urls = (se) => Object.entries(se.baseUrls || {}).map(([p, u]) => p + ": " + u).join("\n");
  return [
    section("Storage endpoints", table([["name", (s) => s.name, "text"], ["site", (s) => s.site, "text"], ["base URLs", urls, "reason"],
      ["prepare", (s) => s.needsPrepare ? "yes" : "no"], ["third-party copy", (s) => s.thirdPartyCopy ? "yes" : "no"],
      ["max in", (s) => s.inboundMaxActive], ["max out", (s) => s.outboundMaxActive], ["updated", (s) => fmtTime(s.updatedAt)],
      ["by", (s) => s.updatedBy, "text"]], endpoints, "endpoints")),
    section("Links", links.length ? table([["link", (l) => l.source_se + " → " + l.dest_se, "text"], ["min active", (l) => l.min_active],
      ["max active", (l) => l.max_active], ["streams", (l) => l.nostreams], ["optimizer", (l) => l.optimizer_mode, "text"],
      ["updated", (l) => fmtTime(l.updated_at)], ["by", (l) => l.updated_by, "text"]], links, "link-config")
      : el("p", "no link has its own settings: every link runs with the defaults")),
    section("VO shares", Object.keys(shares).length ? table([["VO", (e) => e[0], "text"], ["weight", (e) => e[1]]], Object.entries(shares), "shares")
      : el("p", "no shares set: every VO weighs the same")),
  ];
}

// ---- routing ----------------------------------------------------------------------------------------------
const PAGES = { overview: overviewPage, jobs: jobsPage, job: jobPage, errors: errorsPage, optimizer: optimizerPage, probes: probesPage, config: configPage };

async function route() {
  pageAbort.abort();
  const mine = pageAbort = new AbortController();
  const [path, query] = (location.hash.replace(/^#\/?/, "") || "overview").split("?");
  const [name, arg] = path.split("/");
  const render = PAGES[name] || overviewPage;
  const main = document.getElementById("page");
  document.querySelectorAll("nav a[data-page]").forEach((a) => a.classList.toggle("current", a.dataset.page === (name === "job" ? "jobs" : name)));
  main.dataset.page = name;
  main.dataset.ready = "false";
  if (!token()) {
    main.replaceChildren(section("Sign in", el("p", "Paste a bearer token (for example from ./ferry token, or your VO's issuer) above. "
      + "It is kept in this tab only and sent to this service alone.")));
    status("not signed in");
    return;
  }
  status("loading…");
  try {
    const parts = await render(new URLSearchParams(query || ""), arg && decodeURIComponent(arg));
    if (mine.signal.aborted) return; // another page was asked for meanwhile
    main.replaceChildren(...parts);
    status("updated " + new Date().toISOString().slice(11, 19) + " UTC");
    main.dataset.ready = "true";
  } catch (e) {
    if (mine.signal.aborted) return;
    main.replaceChildren();
    status(e.message, true);
    main.dataset.ready = "error";
  }
}

// What the token says about its holder: shown beside the sign-in box (the claims are not verified here; the API does).
function showWho() {
  const who = document.getElementById("who");
  const t = token();
  document.getElementById("signout").hidden = !t;
  document.getElementById("token").hidden = !!t;
  document.getElementById("signin-button").hidden = !!t;
  if (!t) { who.textContent = ""; return; }
  try {
    const claims = JSON.parse(atob(t.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    who.textContent = (claims.sub || "?") + (claims.vo ? " (" + claims.vo + ")" : "") + (claims.exp ? ", expires in " + fmtDuration(claims.exp - Date.now() / 1000) : "");
  } catch (e) {
    who.textContent = "signed in";
  }
}

document.getElementById("signin").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = document.getElementById("token");
  const value = input.value.trim().replace(/^Bearer\s+/i, "");
  input.value = "";
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  showWho();
  route();
});
document.getElementById("signout").addEventListener("click", () => {
  sessionStorage.removeItem(TOKEN_KEY);
  showWho();
  route();
});
window.addEventListener("hashchange", route);
// rate-aggregator runs on another port or host: the service says where its dashboard is.
fetch("/monitor/api/config").then((r) => r.json()).then((c) => { document.getElementById("dashboard-link").href = c.dashboard_url; })
  .catch(() => { document.getElementById("dashboard-link").hidden = true; });
showWho();
route();

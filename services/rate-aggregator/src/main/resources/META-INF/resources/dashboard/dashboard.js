// Ferry dashboard: reads the service's own public monitoring API and draws it with Chart.js (bundled). Chart.js draws
// labels, legends and tooltips on the canvas as text; no HTML tooltip is configured. Served with a policy that allows
// scripts from the service only (application.properties), so the page has no inline script or style.
"use strict";

// Human units, decimal as storage and network rates are quoted (1 MB/s = 10^6 bytes/s).
function fmtRate(bps) {
  if (bps == null) return "–";
  const units = ["B/s", "kB/s", "MB/s", "GB/s", "TB/s"];
  let v = bps, i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return (v >= 100 || i === 0 ? v.toFixed(0) : v.toFixed(1)) + " " + units[i];
}
function fmtBytes(b) {
  const units = ["B", "kB", "MB", "GB", "TB", "PB"];
  let v = b, i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return (v >= 100 || i === 0 ? v.toFixed(0) : v.toFixed(1)) + " " + units[i];
}
const palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"];
const charts = {};
const rendered = { charts: 0, grid: 0, sites: 0, probes: 0 };

async function get(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(path + " answered " + r.status);
  return r.json();
}

function binFor(window) {
  return window === "24h" ? "1h" : window === "7d" ? "6h" : "1d";
}

// counter: which of rendered's counts the chart adds to (the probe chart is counted apart from the others)
function draw(id, config, counter = "charts") {
  if (charts[id]) charts[id].destroy();
  config.options = Object.assign({ animation: false, responsive: true }, config.options || {});
  charts[id] = new Chart(document.getElementById(id), config);
  const points = config.data.datasets.reduce((n, d) => n + d.data.length, 0);
  document.getElementById(id).dataset.points = String(points);
  // the y axis's labels as drawn, so that a test can read the units the canvas shows
  const y = charts[id].scales.y;
  if (y) document.getElementById(id).dataset.yTicks = y.ticks.map((t) => t.label).join("|");
  rendered[counter]++;
}

async function throughput(window, links) {
  const top = links.slice(0, 5);
  const series = await Promise.all(top.map((l) =>
    get(`/rates?source=${encodeURIComponent(l.source)}&destination=${encodeURIComponent(l.destination)}&window=${window}&bin=${binFor(window)}&top=0`)));
  const labels = [...new Set(series.flatMap((s) => s.bins.map((b) => b.start)))].sort();
  const datasets = [];
  series.forEach((s, i) => {
    const byStart = new Map(s.bins.map((b) => [b.start, b]));
    const name = `${s.source} → ${s.destination}`;
    datasets.push({ label: name + " avg", borderColor: palette[i], data: labels.map((t) => byStart.get(t)?.avgFileThroughput ?? null), spanGaps: true });
    datasets.push({ label: name + " peak", borderColor: palette[i], borderDash: [4, 4], data: labels.map((t) => byStart.get(t)?.peakFileThroughput ?? null), spanGaps: true });
  });
  draw("throughput", { type: "line", data: { labels: labels.map((t) => t.replace("T", " ").slice(0, 16)), datasets },
    options: { scales: { y: { beginAtZero: true, title: { display: true, text: "per-file throughput" }, ticks: { callback: (v) => fmtRate(v) } } },
      plugins: { tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${fmtRate(c.parsed.y)}` } } } } });
}

// The probe series of one link (GET /probes, records of activity ferry-probe) beside the link's production: the
// per-file rate of all its records per bin (/rates, which counts the probes' few files too).
async function probes(window) {
  const select = document.getElementById("probe-link");
  const note = document.getElementById("probe-note");
  const probed = await get(`/probes/links?window=${window === "30d" ? "30d" : window}`);
  const wanted = select.value;
  select.replaceChildren(...probed.map((l) => {
    const o = el("option", `${l.source} → ${l.destination} (${l.finished}/${l.runs} runs, ${fmtRate(l.averageThroughput)})`);
    o.value = l.source + "\u0000" + l.destination;
    return o;
  }));
  if (!probed.length) {
    note.textContent = "no probe runs in this window: schedule probes on transfer-scheduler (ferry probe add SRC DST --size 1GB --every 30m)";
    if (charts.probes) { charts.probes.destroy(); delete charts.probes; }
    return;
  }
  if (probed.some((l) => l.source + "\u0000" + l.destination === wanted)) select.value = wanted;
  const [source, destination] = select.value.split("\u0000");
  const q = `source=${encodeURIComponent(source)}&destination=${encodeURIComponent(destination)}&window=${window}`;
  const [series, production] = await Promise.all([get(`/probes?${q}`), get(`/rates?${q}&bin=${binFor(window)}&top=0`)]);
  const labels = [...new Set([...series.runs.map((r) => r.at), ...production.bins.map((b) => b.start)])].sort();
  const at = (list, key, value) => { const m = new Map(list.map((x) => [x[key], value(x)])); return labels.map((t) => m.get(t) ?? null); };
  draw("probes", { type: "line", data: { labels: labels.map((t) => t.replace("T", " ").slice(0, 16)), datasets: [
    { label: "probe run", borderColor: palette[0], backgroundColor: palette[0], showLine: false, pointRadius: 3,
      data: at(series.runs, "at", (r) => r.outcome === "FINISHED" ? r.throughput : 0) },
    { label: "probe 12 h average", borderColor: palette[0], pointRadius: 0, spanGaps: true, data: at(series.runs, "at", (r) => r.average12h) },
    { label: "production per-file rate", borderColor: palette[2], borderDash: [4, 4], spanGaps: true,
      data: at(production.bins, "start", (b) => b.avgFileThroughput) }] },
    options: { scales: { y: { beginAtZero: true, title: { display: true, text: "throughput" }, ticks: { callback: (v) => fmtRate(v) } } },
      plugins: { tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${fmtRate(c.parsed.y)}` } } } } }, "probes");
  const failed = series.runs.filter((r) => r.outcome !== "FINISHED").length;
  note.textContent = `${series.runs.length} runs, ${failed} failed (drawn at zero)`;
}

function colour(metric, row, maxRate) {
  if (metric === "efficiency") {
    const e = row.efficiency;
    if (e == null) return "#eceff3";
    return e >= 0.95 ? "#7bc67b" : e >= 0.8 ? "#f2d45c" : "#e8735f";
  }
  const share = maxRate > 0 ? (row.avgFileThroughput || 0) / maxRate : 0;
  const light = Math.round(90 - 50 * share);
  return `hsl(210, 70%, ${light}%)`;
}

// Names come from transfer records: every one is written as text (createElement/textContent), never parsed as HTML.
function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

function grid(metric, links) {
  const sources = [...new Set(links.map((l) => l.source))].sort();
  const destinations = [...new Set(links.map((l) => l.destination))].sort();
  const byPair = new Map(links.map((l) => [l.source + "\u0000" + l.destination, l]));
  const maxRate = Math.max(0, ...links.map((l) => l.avgFileThroughput || 0));
  const table = el("table");
  const head = el("tr");
  head.append(el("th", "from \\ to"), ...destinations.map((d) => el("th", d)));
  table.append(el("thead"));
  table.tHead.append(head);
  const body = el("tbody");
  for (const s of sources) {
    const row = el("tr");
    row.append(el("th", s));
    for (const d of destinations) {
      const l = byPair.get(s + "\u0000" + d);
      if (!l) { row.append(el("td", null, "empty")); continue; }
      const text = metric === "efficiency" ? (l.efficiency == null ? "–" : (100 * l.efficiency).toFixed(0) + "%") : fmtRate(l.avgFileThroughput);
      const cell = el("td", text, "cell");
      cell.style.background = colour(metric, l, maxRate);
      cell.title = `${l.filesDone} done, ${l.filesFailed} failed`;
      row.append(cell);
      rendered.grid++;
    }
    body.append(row);
  }
  table.append(body);
  document.getElementById("grid").replaceChildren(table);
}

function overhead(links) {
  const rows = links.filter((l) => l.overheadRatio != null).slice(0, 20);
  draw("overhead", { type: "bar", data: { labels: rows.map((l) => `${l.source} → ${l.destination}`),
    datasets: [{ label: "overhead ratio", backgroundColor: "#17324d", data: rows.map((l) => l.overheadRatio) }] },
    options: { scales: { y: { beginAtZero: true, suggestedMin: 1 } } } });
}

function sites(table) {
  document.querySelector("#sites tbody").replaceChildren(...table.sites.map((s) => {
    const row = el("tr");
    row.append(...[s.site, s.filesIn, s.filesOut, fmtBytes(s.bytesIn), fmtBytes(s.bytesOut), s.failedIn, s.failedOut].map((v) => el("td", v)));
    return row;
  }));
  rendered.sites = table.sites.length;
}

async function refresh() {
  const window = document.getElementById("window").value;
  const metric = document.getElementById("metric").value;
  const status = document.getElementById("status");
  rendered.charts = 0; rendered.grid = 0; rendered.sites = 0; rendered.probes = 0;
  try {
    const [links, siteTable] = await Promise.all([get(`/links?window=${window}`), get(`/sites?window=${window}`)]);
    grid(metric, links.rows);
    overhead(links.rows);
    sites(siteTable);
    await throughput(window, links.rows);
    await probes(window);
    status.textContent = `${links.rows.length} links, updated ${new Date().toISOString().slice(11, 19)} UTC`;
    document.body.dataset.rendered = `charts:${rendered.charts} grid:${rendered.grid} sites:${rendered.sites} probes:${rendered.probes}`;
  } catch (e) {
    status.textContent = "error: " + e.message;
    document.body.dataset.rendered = "error";
  }
}

// The monitor runs in transfer-scheduler, on another port or host: the service says where.
get("/dashboard/config.json").then((c) => { document.getElementById("monitor-link").href = c.monitor_url; })
  .catch(() => { document.getElementById("monitor-link").hidden = true; });

document.getElementById("window").addEventListener("change", refresh);
document.getElementById("metric").addEventListener("change", refresh);
document.getElementById("probe-link").addEventListener("change", () => probes(document.getElementById("window").value));
refresh();
setInterval(refresh, 60000);

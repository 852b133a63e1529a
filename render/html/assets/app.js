// lifeline timeline viewer. Trace text is untrusted: it only ever reaches the page through
// textContent, setAttribute or canvas fillText, never as markup.
(function () {
  'use strict';
  var T0 = performance.now();
  var D = JSON.parse(document.getElementById('lifeline-data').textContent);
  performance.mark('lifeline-parsed');
  var KINDS = ['session', 'run', 'wait', 'turn', 'step', 'model', 'tool'];
  var KIND_LABEL = ['session', 'run', 'wait', 'turn', 'step', 'model', 'tool'];
  var F_OPEN = 1, F_INF = 2, F_FAIL = 4, F_NOSTART = 8, F_PLACE = 16, F_SIDE = 32, F_STOPPING = 64, F_CHILD = 128, F_NOEND = 256, F_PROP = 512;
  var ROW = 24;
  var N = D.k.length;
  var STR = D.str;
  var TIMELESS = D.unit === 'seq';
  var TOTAL = Math.max(D.total, 1);

  // ---- decode the columns: O(n) ----
  var kind = new Uint8Array(N), par = new Int32Array(N), depth = new Int32Array(N);
  var S = new Float64Array(N), E = new Float64Array(N), flags = new Uint16Array(N);
  // a failure that originated at the row (not one carried up from a failed descendant)
  function rootFail(i) { return (flags[i] & (F_FAIL | F_PROP)) === F_FAIL; }
  var seq = new Float64Array(N), last = new Int32Array(N), nkids = new Int32Array(N), ord = new Int32Array(N);
  var counter = new Int32Array(N + 1);
  var q = 0;
  for (var i = 0; i < N; i++) {
    kind[i] = D.k[i];
    var p = D.p[i] === 0 ? -1 : i - D.p[i];
    par[i] = p;
    depth[i] = p < 0 ? 0 : depth[p] + 1;
    S[i] = (p < 0 ? 0 : S[p]) + D.s[i];
    flags[i] = D.f[i];
    E[i] = D.d[i] >= 0 ? S[i] + D.d[i] : TOTAL;
    q += D.q[i]; seq[i] = q;
    last[i] = i;
    if (p >= 0) { nkids[p]++; }
    // ordinal among siblings of the same kind (turn 1, turn 2 …)
  }
  for (i = N - 1; i >= 0; i--) { p = par[i]; if (p >= 0 && last[i] > last[p]) last[p] = last[i]; }
  // ordinals: count per (parent, kind) in one pass using a small map keyed by parent for turns/steps
  (function () {
    var cntTurn = new Int32Array(N), cntStep = new Int32Array(N), cntRun = new Int32Array(N);
    var rootRuns = 0;
    for (var i = 0; i < N; i++) {
      var p = par[i];
      if (kind[i] === 3 && p >= 0) ord[i] = ++cntTurn[p];
      else if (kind[i] === 4 && p >= 0) ord[i] = ++cntStep[p];
      else if (kind[i] === 1) ord[i] = p >= 0 ? ++cntRun[p] : ++rootRuns;
    }
  })();
  performance.mark('lifeline-decoded');
  var X = new Array(N); // details objects, sparse
  for (i = 0; i < D.x.length; i++) X[D.x[i][0]] = D.x[i][1];
  var U = new Array(N); // usage, sparse
  for (i = 0; i < D.u.length; i++) U[D.u[i][0]] = D.u[i];
  var FI = new Array(N); var fcount = new Uint16Array(N); var fsev = new Uint8Array(N); // 1 info 2 warning 3 error
  var unplaced = [];
  var SEVRANK = { info: 1, warning: 2, error: 3 };
  for (i = 0; i < D.fi.length; i++) {
    var f = D.fi[i], r = f[0];
    if (r < 0) { unplaced.push(f); continue; }
    (FI[r] || (FI[r] = [])).push(f);
    fcount[r]++;
    fsev[r] = Math.max(fsev[r], SEVRANK[f[2]] || 1);
  }
  var failedRows = [], findingRows = [], boundaryRows = [];
  for (i = 0; i < N; i++) {
    if (rootFail(i)) failedRows.push(i);
    if (fcount[i]) findingRows.push(i);
    if (kind[i] === 1 || kind[i] === 3) boundaryRows.push(i);
  }
  function str(col, i) { return STR[D[col][i]] || ''; }
  function name(i) { return STR[D.n[i]] || ''; }
  function status(i) { return STR[D.st[i]] || ''; }
  function stop(i) { return STR[D.sr[i]] || ''; }
  function shortId(id) {
    if (!id) return '';
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return id.slice(0, 8);
    return id.length > 28 ? id.slice(0, 27) + '…' : id;
  }
  function label(i) {
    var n = name(i);
    switch (kind[i]) {
      case 0: return 'session ' + shortId(D.id[i]);
      case 1: return n || ('run ' + shortId(D.id[i]));
      case 2: return 'waiting for ' + (n || 'input').replace('_', ' ');
      case 3: return 'turn ' + ord[i];
      case 4: return 'step ' + ((X[i] && X[i].index) || ord[i]);
      case 5: return n || 'model call';
      case 6: return n || 'tool call';
    }
    return n || D.id[i];
  }

  // ---- formatting ----
  function fmtDur(us) {
    if (TIMELESS) return (Math.round(us)) + ' ev';
    if (us < 0) return '';
    if (us < 1) return '0';
    if (us < 1000) return Math.round(us) + 'µs';
    if (us < 1e6) return (us < 1e4 ? (us / 1000).toFixed(1) : Math.round(us / 1000)) + 'ms';
    if (us < 6e7) return (us / 1e6).toFixed(us < 1e7 ? 2 : 1) + 's';
    if (us < 36e8) { var m = Math.floor(us / 6e7); return m + 'm' + String(Math.floor(us % 6e7 / 1e6)).padStart(2, '0') + 's'; }
    if (us < YEAR) { var h = Math.floor(us / 36e8); return h + 'h' + String(Math.floor(us % 36e8 / 6e7)).padStart(2, '0') + 'm'; }
    var y = Math.floor(us / YEAR); // an absurd clock: centuries apart
    return y >= 100 ? y + 'y' : y + 'y' + String(Math.floor((us - y * YEAR) / 864e8)).padStart(3, '0') + 'd';
  }
  var YEAR = 31556952e6; // the mean Gregorian year in µs
  // fmtTick labels an axis tick with as many decimals as the tick step needs, so that zoomed-in
  // ticks read +26.40s +26.41s instead of repeating +26.4s.
  function fmtTick(us, step) {
    if (TIMELESS) return '#' + Math.round(us);
    if (step >= 6e7 || us >= 36e8) return '+' + fmtDur(us);
    if (us === 0) return '+0';
    var unit = us < 1e3 ? 1 : us < 1e6 ? 1e3 : 1e6, suffix = unit === 1 ? 'µs' : unit === 1e3 ? 'ms' : 's';
    var dec = Math.max(0, Math.min(9, Math.ceil(Math.log10(unit / step) - 1e-9)));
    if (us >= 6e7) { var m = Math.floor(us / 6e7), sec = (us - m * 6e7) / 1e6; return '+' + m + 'm' + (sec < 10 ? '0' : '') + sec.toFixed(dec) + 's'; }
    return '+' + (us / unit).toFixed(dec) + suffix;
  }
  function fmtOff(us) { return TIMELESS ? '#' + Math.round(us) : '+' + fmtDur(us); }
  function fmtShort(n) {
    if (n < 1000) return String(n);
    var units = ['k', 'M', 'G', 'T', 'P', 'E', 'Z'], u = 0;
    n /= 1e3; while (n >= 999.5 && u < units.length - 1) { n /= 1e3; u++; }
    return n.toFixed(n < 10 ? 1 : 0) + units[u];
  }
  function fmtNum(n) { return Number(n).toLocaleString('en-US'); }
  function fmtCost(c) { return c === 0 ? '$0' : c < 0.01 ? '$' + c.toFixed(4) : '$' + c.toFixed(2); }
  function fmtAbs(us) {
    if (TIMELESS || !D.t0ms) return '';
    var ms = D.t0ms + us / 1000;
    var d = new Date(Math.floor(ms));
    var frac = String(Math.round((ms - Math.floor(ms)) * 1000)).padStart(3, '0');
    return d.toISOString().replace('Z', frac + 'Z');
  }

  // ---- DOM helpers (text only) ----
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = String(text);
    return e;
  }
  function $(id) { return document.getElementById(id); }

  // ---- colours from CSS ----
  var C = {};
  function readColors() {
    var cs = getComputedStyle(document.documentElement);
    ['bg', 'bg2', 'bg3', 'fg', 'fg2', 'fg3', 'line', 'line2', 'sel', 'accent', 'ok', 'err', 'warn', 'info', 'cancel', 'live'].forEach(function (k) { C[k] = cs.getPropertyValue('--' + k).trim(); });
    C.kind = KINDS.map(function (k) { return cs.getPropertyValue('--k-' + k).trim(); });
  }
  readColors();

  // ---- header, summary, legend, notices ----
  $('title').textContent = D.title;
  (function summary() {
    var s = D.sum, box = $('summary');
    function item(n, what, cls) {
      var sp = el('span', cls || ''); sp.appendChild(el('b', '', n)); sp.appendChild(document.createTextNode(' ' + what)); box.appendChild(sp);
    }
    item(fmtNum(s.runs), s.runs === 1 ? 'run' : 'runs');
    item(fmtNum(s.turns), s.turns === 1 ? 'turn' : 'turns');
    item(fmtNum(s.steps), s.steps === 1 ? 'step' : 'steps');
    item(fmtNum(s.model_calls), s.model_calls === 1 ? 'model call' : 'model calls');
    item(fmtNum(s.tool_calls), s.tool_calls === 1 ? 'tool call' : 'tool calls');
    if (!TIMELESS) item(fmtDur(D.total), 'total');
    var u = s.usage || {};
    if (u.input_tokens || u.output_tokens) item(fmtNum((u.input_tokens || 0) + (u.output_tokens || 0)), 'tokens');
    if (u.cost_usd) item(fmtCost(u.cost_usd), 'cost');
    if (s.failed) item(fmtNum(s.failed), s.failed === 1 ? 'error' : 'errors', 'bad');
    if (s.findings) item(fmtNum(s.findings), s.findings === 1 ? 'finding' : 'findings', s.finding_errors ? 'warn' : '');
    if (s.open) item(fmtNum(s.open), 'open');
  })();
  (function legend() {
    var lg = $('legend');
    var items = [['session', 0], ['run', 1], ['turn', 3], ['step', 4], ['model call', 5], ['tool call', 6], ['wait', 2]];
    items.forEach(function (it) { var s = el('span'); var sw = el('i'); sw.style.background = C.kind[it[1]]; s.appendChild(sw); s.appendChild(document.createTextNode(it[0])); lg.appendChild(s); });
    [['err', 'error'], ['open', 'open (never ended)'], ['find', 'invariant finding'], ['inf', 'inferred'], ['cancel', 'cancelled']].forEach(function (it) {
      var s = el('span'); s.appendChild(el('i', it[0])); s.appendChild(document.createTextNode(it[1])); lg.appendChild(s);
    });
  })();
  (function notices() {
    var box = $('notices');
    if (TIMELESS) {
      var n = el('div', 'notice warn');
      n.appendChild(el('b', '', 'No timestamps in this trace. '));
      n.appendChild(document.createTextNode('Bars are laid out by event order (seq), not by time; durations are unknown.'));
      box.appendChild(n);
    }
    if (D.notes && D.notes.length) {
      var d = el('div', 'notice info'), det = el('details'), sm = el('summary', '', D.notes.length + ' repair note' + (D.notes.length === 1 ? '' : 's') + ' from building the tree');
      det.appendChild(sm); var ul = el('ul');
      D.notes.slice(0, 200).forEach(function (t) { ul.appendChild(el('li', '', t)); });
      if (D.notes.length > 200) ul.appendChild(el('li', '', '… ' + (D.notes.length - 200) + ' more'));
      det.appendChild(ul); d.appendChild(det); box.appendChild(d);
    }
    if (unplaced.length) {
      var w = el('div', 'notice warn'), det2 = el('details'), sm2 = el('summary', '', unplaced.length + ' finding' + (unplaced.length === 1 ? '' : 's') + ' about ids not in this tree');
      det2.appendChild(sm2); var ul2 = el('ul');
      unplaced.slice(0, 200).forEach(function (f) { ul2.appendChild(el('li', '', f[1] + ' ' + f[2] + ' (seq ' + f[4] + '): ' + f[3])); });
      det2.appendChild(ul2); w.appendChild(det2); box.appendChild(w);
    }
    if (N === 0) box.appendChild(el('div', 'notice warn', 'The trace has no lifecycle nodes.'));
  })();

  // ---- filter state ----
  var layerOn = [1, 1, 1, 1, 1, 1, 1];
  var collapsed = new Uint8Array(N);
  var keep = new Uint8Array(N); // 1: match, 2: ancestor of a match
  var vdepth = new Int32Array(N);
  var filtering = false;
  var rows = new Int32Array(N), nrows = 0;
  var hay = null;
  var selected = -1;

  (function layerChips() {
    var box = $('layers');
    [[0, 'session'], [1, 'run'], [3, 'turn'], [4, 'step'], [5, 'model'], [6, 'tool']].forEach(function (it) {
      var lab = el('label'); lab.setAttribute('data-kind', String(it[0])); lab.title = 'Show or hide ' + it[1] + ' rows';
      var cb = el('input'); cb.type = 'checkbox'; cb.checked = true; cb.setAttribute('data-kind', String(it[0]));
      var sw = el('span', 'sw'); sw.style.background = C.kind[it[0]];
      lab.appendChild(cb); lab.appendChild(sw); lab.appendChild(document.createTextNode(it[1]));
      cb.addEventListener('change', function () {
        layerOn[it[0]] = cb.checked ? 1 : 0;
        if (it[0] === 1) layerOn[2] = layerOn[1];
        lab.classList.toggle('off', !cb.checked);
        refilter();
      });
      box.appendChild(lab);
    });
  })();

  function buildHay() {
    hay = new Array(N);
    for (var i = 0; i < N; i++) {
      var x = X[i], s = KINDS[kind[i]] + ' ' + label(i) + ' ' + name(i) + ' ' + D.id[i] + ' ' + status(i) + ' ' + stop(i);
      if (x) {
        if (x.error) s += ' ' + (x.error.kind || '') + ' ' + x.error.message;
        if (x.kind) s += ' ' + x.kind;
        if (x.parent_run_id) s += ' ' + x.parent_run_id;
      }
      if (FI[i]) for (var j = 0; j < FI[i].length; j++) s += ' ' + FI[i][j][1];
      if (flags[i] & F_OPEN) s += ' open';
      hay[i] = s.toLowerCase();
    }
  }
  function statusOK(i, want) {
    var st = status(i);
    switch (want) {
      case 'failed': return rootFail(i);
      case 'findings': return fcount[i] > 0;
      case 'open': return (flags[i] & F_OPEN) !== 0;
      case 'inferred': return (flags[i] & F_INF) !== 0;
      case 'ok': return st === 'ok' || st === 'completed';
      case 'cancelled': return st === 'cancelled';
    }
    return true;
  }
  function refilter() {
    var query = $('search').value.trim().toLowerCase();
    var want = $('status').value;
    filtering = query !== '' || want !== '';
    var i, p;
    for (i = 0; i < N; i++) { p = par[i]; vdepth[i] = p < 0 ? 0 : vdepth[p] + (layerOn[kind[p]] ? 1 : 0); }
    if (filtering) {
      if (query && !hay) buildHay();
      var terms = query ? query.split(/\s+/) : [];
      keep.fill(0);
      for (i = N - 1; i >= 0; i--) {
        if (layerOn[kind[i]] && (!want || statusOK(i, want))) {
          var ok = true;
          for (var t = 0; t < terms.length; t++) if (hay[i].indexOf(terms[t]) < 0) { ok = false; break; }
          if (ok) keep[i] |= 1;
        }
        if (keep[i] && par[i] >= 0) keep[par[i]] |= 2;
      }
    }
    rebuild();
  }
  var matches = 0;
  function rebuild() {
    var r = 0; matches = 0;
    for (var i = 0; i < N;) {
      if (filtering && !keep[i]) { i = last[i] + 1; continue; }
      if (layerOn[kind[i]]) {
        rows[r++] = i;
        if (filtering && (keep[i] & 1)) matches++;
        if (collapsed[i]) { i = last[i] + 1; continue; }
      }
      i++;
    }
    nrows = r;
    var rc = $('rowcount');
    rc.setAttribute('data-rows', String(nrows));
    rc.setAttribute('data-matches', String(filtering ? matches : nrows));
    var rowsWord = nrows === 1 ? ' row' : ' rows';
    rc.textContent = filtering ? fmtNum(matches) + ' match' + (matches === 1 ? '' : 'es') + ' · ' + fmtNum(nrows) + rowsWord + ' shown of ' + fmtNum(N)
      : fmtNum(nrows) + rowsWord + (nrows < N ? ' shown of ' + fmtNum(N) : '');
    $('empty').hidden = nrows > 0;
    $('spacer').style.height = (nrows * ROW) + 'px';
    draw();
  }

  // ---- time window ----
  var v0 = 0, v1 = TOTAL;
  function clampView() {
    var span = v1 - v0, minSpan = TIMELESS ? 2 : Math.max(TOTAL / 1e7, 1);
    if (span < minSpan) { var c = (v0 + v1) / 2; v0 = c - minSpan / 2; v1 = c + minSpan / 2; span = minSpan; }
    if (span > TOTAL) { v0 = 0; v1 = TOTAL; return; }
    if (v0 < 0) { v1 -= v0; v0 = 0; }
    if (v1 > TOTAL) { v0 -= v1 - TOTAL; v1 = TOTAL; }
  }
  function zoomAt(frac, factor) {
    var t = v0 + (v1 - v0) * frac;
    v0 = t - (t - v0) * factor; v1 = t + (v1 - t) * factor;
    clampView(); draw(); drawOverviewWindow();
  }
  function zoomTo(a, b) {
    var pad = (b - a) * 0.08 || 1;
    v0 = a - pad; v1 = b + pad; clampView(); draw(); drawOverviewWindow();
  }

  // ---- canvas sizing ----
  var DPR = window.devicePixelRatio || 1;
  var bars = $('bars'), axis = $('axis'), ov = $('overview');
  var bctx = bars.getContext('2d'), actx = axis.getContext('2d'), octx = ov.getContext('2d');
  var BW = 0, BH = 0, AW = 0, AH = 0, OW = 0, OH = 0;
  function fit(c, ctx) {
    var w = c.clientWidth, h = c.clientHeight;
    if (c.width !== Math.round(w * DPR) || c.height !== Math.round(h * DPR)) { c.width = Math.round(w * DPR); c.height = Math.round(h * DPR); }
    ctx.setTransform(DPR, 0, 0, DPR, 0, 0);
    return [w, h];
  }
  function layout() {
    var sc = $('scroller');
    $('viewport').style.height = sc.clientHeight + 'px';
    var a = fit(bars, bctx); BW = a[0]; BH = a[1];
    a = fit(axis, actx); AW = a[0]; AH = a[1];
    a = fit(ov, octx); OW = a[0]; OH = a[1];
    overviewCache = null;
  }

  // ---- tree rows (virtualised DOM) ----
  var tree = $('tree'), pool = [];
  function rowEl(k) {
    while (pool.length <= k) {
      var r = el('div', 'row'); r.setAttribute('role', 'treeitem');
      var ind = el('span', 'ind'), tw = el('span', 'tw'), kd = el('span', 'kind'), lb = el('span', 'label'), sc = el('span', 'stchip'), ch = el('span', 'chips'), tk = el('span', 'tok'), du = el('span', 'dur');
      r.appendChild(ind); r.appendChild(tw); r.appendChild(kd); r.appendChild(lb); r.appendChild(sc); r.appendChild(ch); r.appendChild(tk); r.appendChild(du);
      r._p = { ind: ind, tw: tw, kd: kd, lb: lb, sc: sc, ch: ch, tk: tk, du: du };
      tree.appendChild(r); pool.push(r);
    }
    return pool[k];
  }
  function chip(box, cls, text, title) { var c = el('span', 'chip ' + cls, text); if (title) c.title = title; box.appendChild(c); }
  function statusClass(st) {
    switch (st) {
      case 'ok': case 'completed': case 'approved': return 'ok';
      case 'error': case 'failed': case 'unknown': case 'denied': return 'bad';
      case 'cancelled': return 'cancel';
      case 'running': case 'waiting': case 'queued': return 'live';
    }
    return '';
  }
  function fillRow(r, i) {
    var P = r._p;
    r.setAttribute('data-i', String(i));
    r.className = 'row' + (i === selected ? ' sel' : '') + (filtering && !(keep[i] & 1) ? ' ctx' : '') + (flags[i] & F_FAIL ? ' failed' : '') + (flags[i] & F_PROP ? ' prop' : '');
    r.setAttribute('aria-selected', i === selected ? 'true' : 'false');
    P.ind.style.width = (vdepth[i] * 14 + 4) + 'px';
    P.tw.textContent = nkids[i] ? (collapsed[i] ? '▸' : '▾') : '';
    P.kd.className = 'kind k' + kind[i];
    P.kd.textContent = KIND_LABEL[kind[i]];
    P.lb.textContent = label(i);
    P.lb.className = 'label' + ((kind[i] === 3 || kind[i] === 4 || kind[i] === 0) ? ' dim' : '') + ((flags[i] & F_INF) && !(flags[i] & F_PLACE) ? ' inf' : '');
    P.lb.title = (flags[i] & F_INF) && !(flags[i] & F_PLACE) ? 'partly inferred (' + ((X[i] && X[i].inferred) || []).join(', ') + '): see the details' : '';
    var ch = P.ch; ch.textContent = ''; P.sc.textContent = '';
    var x = X[i] || {};
    var st = status(i), sr = stop(i);
    // the status comes first: it is what a row must never lose to a long label
    // (in a box of its own that never shrinks; the other chips give way first)
    if (st && !(kind[i] >= 3 && st === 'ok')) chip(P.sc, statusClass(st) + ((flags[i] & F_PROP) ? ' via' : ''), st, (flags[i] & F_PROP) ? 'failed because a step or call inside it failed' : '');
    if (fcount[i]) {
      var codes = []; for (var j = 0; j < FI[i].length && j < 3; j++) if (codes.indexOf(FI[i][j][1]) < 0) codes.push(FI[i][j][1]);
      chip(ch, 'find' + (fsev[i] === 1 ? ' info' : ''), '⚠ ' + codes.join(' ') + (fcount[i] > codes.length ? ' +' + (fcount[i] - codes.length) : ''), FI[i][0][3]);
    }
    if (flags[i] & F_CHILD) chip(ch, 'child', (x.kind || 'child run') + (x.attempt > 1 ? ' #' + x.attempt : ''), x.started_by ? 'started by tool call ' + x.started_by + ' of run ' + (x.parent_run_id || '') : 'nested under parent run ' + (x.parent_run_id || ''));
    if (sr && sr !== 'goal_reached') chip(ch, 'stop', sr, 'stop reason'); // the happy ending is in the details
    if (flags[i] & F_OPEN) chip(ch, 'open', 'open', 'never ended');
    if (flags[i] & F_PLACE) chip(ch, 'inf', 'placeholder', 'opened by a later event; its start was never recorded');
    if (flags[i] & F_SIDE) chip(ch, '', 'side effect');
    var u = U[i];
    P.du.textContent = (flags[i] & F_OPEN) ? '…' : (D.d[i] >= 0 && !TIMELESS ? fmtDur(D.d[i]) : '');
    P.tk.textContent = u ? fmtShort(u[1] + u[2]) : '';
    P.tk.title = u ? fmtNum(u[1]) + ' in / ' + fmtNum(u[2]) + ' out tokens' + (u[3] ? ' (' + fmtNum(u[3]) + ' cached)' : '') + (u[4] ? ' · ' + fmtCost(u[4]) : '') + (kind[i] !== 5 ? ' — children summed once' : '') : '';
  }

  // ---- drawing ----
  var scroller = $('scroller');
  var pending = false, drawn = [];
  function draw() {
    if (pending) return; pending = true;
    requestAnimationFrame(function () { pending = false; drawNow(); });
  }
  // The plot leaves a margin on both sides so that bars and labels never touch the edge.
  var PAD_L = 6, PAD_R = 24;
  function plotW(w) { return Math.max(w - PAD_L - PAD_R, 10); }
  function xAt(t, w) { return PAD_L + (t - v0) / (v1 - v0) * plotW(w); }
  function tAt(x, w) { return v0 + (x - PAD_L) / plotW(w) * (v1 - v0); }
  function xOf(t) { return xAt(t, BW); }
  function drawNow() {
    var top = scroller.scrollTop;
    var first = Math.floor(top / ROW), off = -(top - first * ROW);
    var count = Math.ceil(BH / ROW) + 1;
    // tree rows
    var used = 0;
    for (var k = 0; k < count; k++) {
      var ri = first + k; if (ri >= nrows) break;
      var r = rowEl(used++);
      r.style.transform = 'translateY(' + (off + k * ROW) + 'px)';
      r.hidden = false;
      fillRow(r, rows[ri]);
    }
    for (k = used; k < pool.length; k++) pool[k].hidden = true;
    drawn = Array.prototype.slice.call(rows, first, Math.min(first + count, nrows));
    drawBars(first, off, count);
    drawAxis();
  }
  function hatch(ctx, x, y, w, h, color) {
    ctx.save(); ctx.beginPath(); ctx.rect(x, y, w, h); ctx.clip();
    ctx.strokeStyle = color; ctx.lineWidth = 1;
    ctx.beginPath();
    for (var d = x - h; d < x + w; d += 5) { ctx.moveTo(d, y + h); ctx.lineTo(d + h, y); }
    ctx.stroke(); ctx.restore();
  }
  function barColor(i) {
    if (flags[i] & F_FAIL) return C.err; // a propagated failure is drawn lighter (drawBar)
    return C.kind[kind[i]];
  }
  function drawBars(first, off, count) {
    var c = bctx;
    c.clearRect(0, 0, BW, BH);
    // zebra + selection background
    for (var k = 0; k < count; k++) {
      var ri = first + k; if (ri >= nrows) break;
      var i = rows[ri], y = off + k * ROW;
      if (i === selected) { c.fillStyle = C.sel; c.fillRect(0, y, BW, ROW); }
      else if (ri % 2) { c.fillStyle = C.bg2; c.fillRect(0, y, BW, ROW); }
    }
    // grid lines from the axis ticks
    var tk = ticks(BW);
    c.strokeStyle = C.line; c.lineWidth = 1; c.beginPath();
    for (var t = 0; t < tk.length; t++) { var gx = Math.round(xOf(tk[t])) + 0.5; c.moveTo(gx, 0); c.lineTo(gx, BH); }
    c.stroke();
    // run and turn boundaries in view
    var inView = 0;
    for (var b = 0; b < boundaryRows.length; b++) { var bi = boundaryRows[b]; if (E[bi] >= v0 && S[bi] <= v1) inView++; }
    if (inView <= 400) {
      for (b = 0; b < boundaryRows.length; b++) {
        bi = boundaryRows[b];
        if (!layerOn[kind[bi]] || !(E[bi] >= v0 && S[bi] <= v1)) continue;
        var isRun = kind[bi] === 1;
        c.strokeStyle = isRun ? C.kind[1] : C.kind[3];
        c.globalAlpha = isRun ? 0.45 : 0.3;
        c.setLineDash(isRun ? [] : [3, 3]);
        c.beginPath();
        var sx = Math.round(xOf(S[bi])) + 0.5; c.moveTo(sx, 0); c.lineTo(sx, BH);
        if (!(flags[bi] & F_OPEN)) { var ex = Math.round(xOf(E[bi])) + 0.5; c.moveTo(ex, 0); c.lineTo(ex, BH); }
        c.stroke();
      }
      c.setLineDash([]); c.globalAlpha = 1;
    }
    // selected node's interval as a band
    if (selected >= 0) {
      var s0 = xOf(S[selected]), s1 = xOf(E[selected]);
      c.fillStyle = C.accent; c.globalAlpha = 0.07; c.fillRect(s0, 0, Math.max(s1 - s0, 1), BH); c.globalAlpha = 1;
    }
    c.font = '11px ' + getComputedStyle(document.body).fontFamily;
    c.textBaseline = 'middle';
    for (k = 0; k < count; k++) {
      ri = first + k; if (ri >= nrows) break;
      i = rows[ri]; y = off + k * ROW;
      drawBar(c, i, y);
    }
  }
  function drawBar(c, i, y) {
    var x0 = xOf(S[i]), x1 = xOf(E[i]);
    var open = (flags[i] & F_OPEN) !== 0, noend = (flags[i] & F_NOEND) !== 0;
    var h = kind[i] <= 1 ? 14 : kind[i] === 3 || kind[i] === 4 ? 12 : 10;
    var by = y + (ROW - h) / 2;
    var w = Math.max(x1 - x0, 2);
    if (x0 > BW + 200 || x1 < -200) { offscreenMark(c, i, y, x0 < 0); return; }
    var col = barColor(i), st = status(i);
    var dimmed = filtering && !(keep[i] & 1);
    c.globalAlpha = dimmed ? 0.35 : 1;
    var cx0 = Math.max(x0, -2), cw = Math.min(x0 + w, BW + 2) - cx0;
    if (open || noend) {
      var g = c.createLinearGradient(cx0, 0, cx0 + cw, 0);
      g.addColorStop(0, col); g.addColorStop(1, 'rgba(128,128,128,0.08)');
      c.fillStyle = g; c.fillRect(cx0, by, cw, h);
      c.strokeStyle = col; c.setLineDash([3, 2]); c.strokeRect(cx0 + 0.5, by + 0.5, cw - 1, h - 1); c.setLineDash([]);
    } else if (kind[i] === 2 || st === 'cancelled') {
      c.fillStyle = kind[i] === 2 ? col : C.cancel; c.globalAlpha *= 0.35; c.fillRect(cx0, by, cw, h); c.globalAlpha = dimmed ? 0.35 : 1;
      hatch(c, cx0, by, cw, h, kind[i] === 2 ? col : C.cancel);
    } else {
      c.fillStyle = col;
      if (flags[i] & F_PROP) { c.globalAlpha *= 0.55; }
      else if (kind[i] <= 1 || kind[i] === 3) { c.globalAlpha *= 0.85; }
      c.fillRect(cx0, by, cw, h);
      c.globalAlpha = dimmed ? 0.35 : 1;
    }
    if (flags[i] & F_INF) { c.strokeStyle = C.fg2; c.setLineDash([2, 2]); c.strokeRect(cx0 + 0.5, by - 1.5, cw - 1, h + 3); c.setLineDash([]); }
    if (i === selected) { c.strokeStyle = C.fg; c.lineWidth = 1.5; c.strokeRect(cx0 - 1, by - 1, cw + 2, h + 2); c.lineWidth = 1; }
    if (fcount[i]) { // finding marker: a triangle at the bar start
      c.fillStyle = fsev[i] === 1 ? C.info : C.warn;
      var mx = Math.max(x0, 5);
      c.beginPath(); c.moveTo(mx - 5, by - 3); c.lineTo(mx + 5, by - 3); c.lineTo(mx, by + 5); c.closePath(); c.fill();
    }
    // label: inside when it fits, else beside the bar where there is room, cut to fit
    var txt = barText(i);
    var tw = c.measureText(txt).width;
    var plain = !open && !noend && kind[i] !== 2 && st !== 'cancelled';
    var inW = plain ? cw - 10 : 0, rightX = Math.min(x0 + w, BW) + 5, rightW = BW - PAD_R / 2 - rightX, leftW = x0 - 10;
    var ty = y + ROW / 2 + 0.5;
    c.fillStyle = (flags[i] & F_FAIL) ? C.err : C.fg2;
    if (tw <= inW) { c.fillStyle = '#fff'; c.fillText(txt, cx0 + 5, ty); }
    else if (tw <= rightW) c.fillText(txt, rightX, ty);
    else if (tw <= leftW) c.fillText(txt, x0 - 5 - tw, ty);
    else {
      var room = Math.max(inW, rightW, leftW);
      if (room > 30) {
        var cut = fitText(c, txt, room);
        if (room === inW) { c.fillStyle = '#fff'; c.fillText(cut, cx0 + 5, ty); }
        else if (room === rightW) c.fillText(cut, rightX, ty);
        else c.fillText(cut, x0 - 5 - c.measureText(cut).width, ty);
      }
    }
    c.globalAlpha = 1;
  }
  function fitText(c, s, w) {
    var lo = 0, hi = s.length;
    while (lo < hi) { var m = (lo + hi + 1) >> 1; if (c.measureText(s.slice(0, m) + '…').width <= w) lo = m; else hi = m - 1; }
    return s.slice(0, lo) + '…';
  }
  function offscreenMark(c, i, y, left) {
    c.fillStyle = C.fg3; c.globalAlpha = 0.6;
    var x = left ? 2 : BW - 8;
    c.beginPath();
    if (left) { c.moveTo(x + 6, y + 7); c.lineTo(x, y + ROW / 2); c.lineTo(x + 6, y + ROW - 7); }
    else { c.moveTo(x, y + 7); c.lineTo(x + 6, y + ROW / 2); c.lineTo(x, y + ROW - 7); }
    c.fill(); c.globalAlpha = 1;
  }
  function barText(i) {
    var parts = [];
    if (!TIMELESS && D.d[i] >= 0) parts.push(fmtDur(D.d[i]));
    if (kind[i] >= 5 || kind[i] === 1) parts.push(label(i));
    var st = status(i), sr = stop(i);
    if (flags[i] & F_FAIL) { var x = X[i]; parts.push('✕ ' + (x && x.error ? (x.error.kind ? x.error.kind + ': ' : '') + x.error.message : st)); }
    else if (kind[i] === 1 && st) parts.push(st);
    if (sr) parts.push(sr);
    if (flags[i] & F_OPEN) parts.push('open …');
    var s = parts.join(' · ');
    return s.length > 90 ? s.slice(0, 89) + '…' : s;
  }

  // ---- axis ----
  function ticks(width) {
    var span = v1 - v0, target = Math.max(2, Math.floor(width / 110));
    var raw = span / target, mag = Math.pow(10, Math.floor(Math.log10(raw || 1))), step = mag;
    [1, 2, 5, 10].some(function (m) { step = m * mag; return step >= raw; });
    if (TIMELESS) step = Math.max(1, Math.round(step));
    var out = [], t = Math.ceil(v0 / step) * step;
    for (; t <= v1 && out.length < 200; t += step) out.push(t);
    return out;
  }
  function drawAxis() {
    var c = actx;
    c.clearRect(0, 0, AW, AH);
    c.fillStyle = C.bg2; c.fillRect(0, 0, AW, AH);
    c.font = '10.5px ' + getComputedStyle(document.body).fontFamily; c.textBaseline = 'middle'; c.fillStyle = C.fg2; c.strokeStyle = C.line2;
    var tk = ticks(AW);
    c.beginPath();
    for (var k = 0; k < tk.length; k++) {
      var x = Math.round(xAt(tk[k], AW)) + 0.5;
      c.moveTo(x, AH - 6); c.lineTo(x, AH);
      c.fillText(fmtTick(tk[k], tk.length > 1 ? tk[1] - tk[0] : v1 - v0), x + 3, AH / 2 - 1);
    }
    c.stroke();
    if (brush) {
      c.fillStyle = C.accent; c.globalAlpha = 0.2;
      c.fillRect(Math.min(brush.a, brush.b), 0, Math.abs(brush.b - brush.a), AH); c.globalAlpha = 1;
    }
  }

  // ---- overview: one lane per layer ----
  var LANES = [[0, 'session'], [1, 'run'], [3, 'turn'], [4, 'step'], [5, 'model'], [6, 'tool']];
  var overviewCache = null, OV_LABEL = 0;
  function buildOverview() {
    var w = Math.max(1, Math.round((OW - OV_LABEL) * DPR)), hpx = Math.round(OH * DPR);
    var cv = document.createElement('canvas'); cv.width = Math.round(OW * DPR); cv.height = hpx;
    var c = cv.getContext('2d');
    c.setTransform(DPR, 0, 0, DPR, 0, 0);
    var laneH = (OH - 4) / LANES.length;
    var laneOf = new Int8Array(8).fill(-1);
    LANES.forEach(function (l, j) { laneOf[l[0]] = j; });
    laneOf[2] = 1; // waits share the run lane
    var cov = [], err = [], cnt = new Int32Array(LANES.length);
    for (var j = 0; j < LANES.length; j++) { cov.push(new Int32Array(w + 1)); err.push(new Int32Array(w + 1)); }
    var scale = w / TOTAL;
    for (var i = 0; i < N; i++) {
      var ln = laneOf[kind[i]]; if (ln < 0) continue;
      var a = Math.floor(S[i] * scale), b = Math.max(a + 1, Math.ceil(E[i] * scale));
      if (a < 0) a = 0; if (b > w) b = w; if (a >= w) a = w - 1;
      cov[ln][a]++; cov[ln][b]--;
      if (flags[i] & F_FAIL) { err[ln][a]++; err[ln][b]--; }
      cnt[ln]++;
    }
    c.font = '10px ' + getComputedStyle(document.body).fontFamily; c.textBaseline = 'middle';
    for (j = 0; j < LANES.length; j++) {
      var y = 2 + j * laneH;
      c.fillStyle = C.bg3; c.globalAlpha = 0.5; c.fillRect(OV_LABEL, y + 1, OW - OV_LABEL, laneH - 2); c.globalAlpha = 1;
      var run = 0, erun = 0;
      for (var x = 0; x < w; x++) {
        run += cov[j][x]; erun += err[j][x];
        if (run <= 0) continue;
        c.fillStyle = C.kind[LANES[j][0]];
        c.fillRect(OV_LABEL + x / DPR, y + 1.5, 1 / DPR + 0.01, laneH - 3);
        if (erun > 0) { c.fillStyle = C.err; c.fillRect(OV_LABEL + x / DPR, y + laneH / 2, 1 / DPR + 0.01, laneH / 2 - 1.5); }
      }
    }
    // boundaries: separators between consecutive runs and turns
    c.fillStyle = C.bg;
    var sepOK = [cnt[1] * 4 < OW, cnt[2] * 4 < OW];
    for (var b2 = 0; b2 < boundaryRows.length; b2++) {
      var bi = boundaryRows[b2], lane = kind[bi] === 1 ? 1 : 2;
      if (!sepOK[lane - 1]) continue;
      var bx = OV_LABEL + S[bi] * scale / DPR;
      c.fillRect(bx, 2 + lane * laneH + 1, 1, laneH - 2);
    }
    // findings: small marks on top
    c.fillStyle = C.warn;
    for (var f = 0; f < findingRows.length && f < 5000; f++) {
      var fi = findingRows[f], fl = laneOf[kind[fi]]; if (fl < 0) continue;
      c.fillRect(OV_LABEL + S[fi] * scale / DPR - 1, 2 + fl * laneH, 3, 3);
    }
    // lane names over the lanes' left end
    for (j = 0; j < LANES.length; j++) {
      y = 2 + j * laneH;
      var tw = c.measureText(LANES[j][1]).width;
      c.fillStyle = C.bg2; c.globalAlpha = 0.85; c.fillRect(2, y + 1, tw + 8, laneH - 2); c.globalAlpha = 1;
      c.fillStyle = C.fg; c.fillText(LANES[j][1], 6, y + laneH / 2 + 0.5);
    }
    overviewCache = cv;
  }
  function drawOverviewWindow() {
    var c = octx;
    if (!overviewCache) buildOverview();
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.clearRect(0, 0, ov.width, ov.height);
    c.drawImage(overviewCache, 0, 0);
    c.setTransform(DPR, 0, 0, DPR, 0, 0);
    var w = OW - OV_LABEL, a = OV_LABEL + v0 / TOTAL * w, b = OV_LABEL + v1 / TOTAL * w;
    if (v0 > 0 || v1 < TOTAL) {
      c.fillStyle = C.bg; c.globalAlpha = 0.6;
      c.fillRect(OV_LABEL, 0, a - OV_LABEL, OH); c.fillRect(b, 0, OW - b, OH);
      c.globalAlpha = 1; c.strokeStyle = C.accent; c.lineWidth = 1.5; c.strokeRect(a, 1, Math.max(b - a, 2), OH - 2); c.lineWidth = 1;
    }
  }

  // ---- details pane ----
  function kv(tbl, k, v, cls) {
    if (v === undefined || v === null || v === '') return null;
    var tr = el('tr'); tr.appendChild(el('td', '', k));
    var td = el('td', 'v' + (cls ? ' ' + cls : ''));
    if (v instanceof Node) td.appendChild(v); else td.textContent = String(v);
    tr.appendChild(td); tbl.appendChild(tr); return td;
  }
  function link(text, target) {
    var a = el('a', '', text); a.setAttribute('role', 'link'); a.tabIndex = 0;
    a.addEventListener('click', function () { select(target, true); });
    return a;
  }
  function ancestor(i, k) { for (var p = par[i]; p >= 0; p = par[p]) if (kind[p] === k) return p; return -1; }
  function findRun(id) { for (var j = 0; j < boundaryRows.length; j++) { var b = boundaryRows[j]; if (kind[b] === 1 && D.id[b] === id) return b; } return -1; }
  function section(body, title) { body.appendChild(el('h3', '', title)); var t = el('table'); body.appendChild(t); return t; }
  function showDetails(i) {
    var pane = $('details');
    if (i < 0) { pane.hidden = true; layoutSoon(); return; }
    var wasHidden = pane.hidden;
    pane.hidden = false;
    $('d-kind').className = 'kind k' + kind[i]; $('d-kind').textContent = KIND_LABEL[kind[i]];
    $('d-title').textContent = label(i);
    var body = $('d-body'); body.textContent = '';
    var x = X[i] || {};
    var st = status(i), sr = stop(i);
    if (flags[i] & F_PROP) {
      var from = -1; for (var fj = i + 1; fj <= last[i]; fj++) if (rootFail(fj)) { from = fj; break; }
      var pb = el('div', 'box err'); pb.appendChild(el('div', 't', '✕ ' + (st || 'error') + ' because a ' + (from >= 0 ? KINDS[kind[from]] + ' inside it' : 'descendant') + ' failed'));
      if (x.error) pb.appendChild(el('div', 'm', x.error.message));
      if (from >= 0) { var sdiv = el('div', 's'); sdiv.appendChild(document.createTextNode('origin: ')); sdiv.appendChild(link(KINDS[kind[from]] + ' ' + label(from), from)); pb.appendChild(sdiv); }
      body.appendChild(pb);
    } else if (flags[i] & F_FAIL) {
      var box = el('div', 'box err'); box.appendChild(el('div', 't', '✕ ' + (x.error && x.error.kind ? x.error.kind : (st || 'error'))));
      if (x.error) { box.appendChild(el('div', 'm', x.error.message)); if (x.error.retryable) box.appendChild(el('div', 's', 'retryable')); }
      body.appendChild(box);
    }
    if (FI[i]) {
      // identical findings (same code, severity and message) are shown once with their seqs
      var groups = [], byKey = {};
      FI[i].forEach(function (f) {
        var key = f[1] + '\u0000' + f[2] + '\u0000' + f[3];
        if (!byKey[key]) { byKey[key] = { f: f, seqs: [] }; groups.push(byKey[key]); }
        byKey[key].seqs.push(f[4]);
      });
      groups.slice(0, 50).forEach(function (g) {
        var f = g.f, b = el('div', 'box find' + (f[2] === 'info' ? ' info' : ''));
        b.appendChild(el('div', 't', f[1] + ' · ' + f[2] + (g.seqs.length > 1 ? ' ×' + g.seqs.length : '') + (D.titles[f[1]] ? ' — ' + D.titles[f[1]] : '')));
        b.appendChild(el('div', 'm', f[3]));
        var seqs = g.seqs.slice(0, 12).join(', ') + (g.seqs.length > 12 ? ', …' : '');
        b.appendChild(el('div', 's', 'seq ' + seqs + (f[5] && f[5].length ? ' · ids ' + f[5].join(', ') : '')));
        body.appendChild(b);
      });
      if (groups.length > 50) body.appendChild(el('div', 'box find', '… ' + (groups.length - 50) + ' more kinds of findings'));
    }
    var t = section(body, 'Identity');
    kv(t, 'id', D.id[i]);
    if (name(i)) kv(t, kind[i] === 1 ? 'agent' : 'name', name(i));
    var names = ['session_id', 'run_id', null, 'turn_id', 'step_id'];
    [0, 1, 3, 4].forEach(function (k) {
      if (k >= kind[i] && !(kind[i] === 2 && k === 1)) return;
      var a = ancestor(i, k); if (a >= 0) kv(t, names[k], link(D.id[a], a));
    });
    if (x.parent_run_id) { var pr = findRun(x.parent_run_id); kv(t, 'parent_run_id', pr >= 0 ? link(x.parent_run_id, pr) : x.parent_run_id + ' (not in this trace)'); }
    if (x.started_by && par[i] >= 0 && kind[par[i]] === 6) kv(t, 'started by', link('tool call ' + (name(par[i]) || '') + ' (' + x.started_by + ')', par[i]));
    kv(t, 'kind', x.kind); kv(t, 'attempt', x.attempt); kv(t, 'agent_version', x.agent_version);
    if (kind[i] === 2) { kv(t, 'call_id', D.id[i]); }
    t = section(body, 'Status');
    kv(t, kind[i] === 1 ? 'status' : 'outcome', st || '(not recorded)');
    kv(t, 'stop reason', sr); kv(t, 'wait reason', x.wait_reason || x.reason); kv(t, 'decision', x.decision);
    if (flags[i] & F_STOPPING) kv(t, 'stopping', 'reached turn/stopping');
    if (flags[i] & F_OPEN) kv(t, 'open', 'never ended — drawn to the end of the trace');
    if (x.side_effect) kv(t, 'side effect', 'yes'); kv(t, 'idempotency key', x.idempotency_key);
    if (x.inferred) kv(t, 'inferred', x.inferred.join(', '));
    t = section(body, 'Timing');
    if (TIMELESS) { kv(t, 'order', 'no timestamps: position by event seq'); }
    else {
      kv(t, 'start', (flags[i] & F_NOSTART) ? '(unknown)' : fmtAbs(S[i]) + '  (' + fmtOff(S[i]) + ')');
      if (D.d[i] >= 0) { kv(t, 'end', fmtAbs(E[i]) + '  (' + fmtOff(E[i]) + ')'); kv(t, 'duration', fmtDur(D.d[i])); }
      else kv(t, 'end', (flags[i] & F_OPEN) ? '(open)' : '(unknown)');
      if (x.queued) kv(t, 'queued', x.queued);
    }
    kv(t, 'seq', seq[i] ? seq[i] + (D.eq[i] ? ' → ' + (seq[i] + D.eq[i]) : '') : '');
    if (D.of && D.of[i]) { var line = 0; for (var j = 0; j <= i; j++) line += D.ol[j]; kv(t, 'origin', STR[D.of[i]] + (line ? ':' + line : '')); }
    var u = U[i];
    if (u) {
      t = section(body, kind[i] === 5 ? 'Usage' : 'Usage (children summed once)');
      kv(t, 'input tokens', fmtNum(u[1])); kv(t, 'output tokens', fmtNum(u[2]));
      if (u[3]) kv(t, 'cached tokens', fmtNum(u[3]));
      if (u[4]) kv(t, 'cost', fmtCost(u[4]));
    }
    if (nkids[i]) {
      t = section(body, 'Children');
      var cnt = [0, 0, 0, 0, 0, 0, 0], bad = 0;
      for (j = i + 1; j <= last[i]; j++) { cnt[kind[j]]++; if (rootFail(j)) bad++; }
      var parts = []; for (j = 1; j < 7; j++) if (cnt[j]) parts.push(fmtNum(cnt[j]) + ' ' + KINDS[j] + (cnt[j] > 1 ? 's' : ''));
      kv(t, 'descendants', parts.join(', '));
      if (bad) kv(t, 'errors', fmtNum(bad));
    }
    if (x.history) {
      t = section(body, 'Status history'); t.className = 'hist';
      x.history.forEach(function (h) {
        kv(t, h.status, [h.wait_reason, h.stop_reason, h.cause ? 'cause ' + h.cause : '', h.source ? 'by ' + h.source : '', h.seq ? 'seq ' + h.seq : ''].filter(Boolean).join(' · ') || ' ');
      });
    }
    if (x.resumes) { t = section(body, 'Resumed'); x.resumes.forEach(function (r) { kv(t, 'at', r); }); }
    if (x.inputs) { t = section(body, 'Inputs'); x.inputs.forEach(function (n) { kv(t, n.kind, n.text + (n.consumed_by ? '  → ' + n.consumed_by : '  (not consumed)')); }); }
    if (x.consumes) { t = section(body, 'Consumes'); kv(t, 'inputs', x.consumes.join(', ')); }
    if (x.connections) { t = section(body, 'Connections'); x.connections.forEach(function (c) { kv(t, c.id, (c.run_id ? 'run ' + c.run_id + ' · ' : '') + (c.open ? 'open' : 'closed')); }); }
    if (x.messages) { t = section(body, 'Messages'); Object.keys(x.messages).forEach(function (r) { kv(t, r || '(no role)', x.messages[r]); }); }
    if (x.attrs) {
      body.appendChild(el('h3', '', 'Attributes'));
      body.appendChild(el('pre', '', JSON.stringify(x.attrs, null, 2)));
    }
    if (wasHidden) layoutSoon();
  }
  var layoutTimer = 0;
  function layoutSoon() { cancelAnimationFrame(layoutTimer); layoutTimer = requestAnimationFrame(function () { layout(); drawOverviewWindow(); drawNow(); }); }

  // ---- selection & navigation ----
  function rowIndexOf(i) { for (var r = 0; r < nrows; r++) if (rows[r] === i) return r; return -1; }
  function reveal(i) {
    var changed = false;
    for (var p = par[i]; p >= 0; p = par[p]) if (collapsed[p]) { collapsed[p] = 0; changed = true; }
    if (filtering && !keep[i]) { $('search').value = ''; $('status').value = ''; refilter(); changed = false; }
    if (!layerOn[kind[i]]) { layerOn[kind[i]] = 1; syncLayerChips(); refilter(); changed = false; }
    if (changed) rebuild();
  }
  function select(i, scrollTo, zoom) {
    selected = i;
    if (i >= 0) {
      reveal(i);
      if (scrollTo) {
        var r = rowIndexOf(i);
        if (r >= 0) {
          var top = r * ROW, h = scroller.clientHeight;
          if (top < scroller.scrollTop || top + ROW > scroller.scrollTop + h) scroller.scrollTop = Math.max(0, top - h / 3);
        }
        if (xOf(S[i]) > BW || xOf(E[i]) < 0) zoomTo(S[i], E[i]);
      }
      if (zoom) zoomTo(S[i], E[i]);
    }
    showDetails(i);
    draw();
  }
  function syncLayerChips() {
    var cbs = $('layers').querySelectorAll('input');
    for (var k = 0; k < cbs.length; k++) { var kk = +cbs[k].getAttribute('data-kind'); cbs[k].checked = !!layerOn[kk]; cbs[k].parentNode.classList.toggle('off', !layerOn[kk]); }
  }
  function nextOf(list, dir) {
    if (!list.length) return;
    var cur = selected, pick = -1;
    if (dir > 0) { for (var k = 0; k < list.length; k++) if (list[k] > cur) { pick = list[k]; break; } if (pick < 0) pick = list[0]; }
    else { for (k = list.length - 1; k >= 0; k--) if (list[k] < cur) { pick = list[k]; break; } if (pick < 0) pick = list[list.length - 1]; }
    select(pick, true);
  }
  (function navButtons() {
    var ne = $('next-err'), nf = $('next-find');
    ne.textContent = failedRows.length ? fmtNum(failedRows.length) + ' error' + (failedRows.length === 1 ? '' : 's') : 'no errors';
    ne.classList.toggle('has', failedRows.length > 0);
    nf.textContent = findingRows.length ? fmtNum(D.fi.length) + ' finding' + (D.fi.length === 1 ? '' : 's') + ' ▸' : 'no findings';
    nf.classList.toggle('has', findingRows.length > 0);
    [ne, $('next-err2'), $('prev-err')].forEach(function (b) { b.disabled = !failedRows.length; });
    nf.disabled = !findingRows.length;
    ne.addEventListener('click', function () { nextOf(failedRows, 1); });
    $('next-err2').addEventListener('click', function () { nextOf(failedRows, 1); });
    $('prev-err').addEventListener('click', function () { nextOf(failedRows, -1); });
    nf.addEventListener('click', function () { nextOf(findingRows, 1); });
  })();
  function setCollapsed(fn) { for (var i = 0; i < N; i++) collapsed[i] = nkids[i] && fn(i) ? 1 : 0; rebuild(); }
  $('expand').addEventListener('click', function () { setCollapsed(function () { return false; }); });
  $('collapse').addEventListener('click', function () { setCollapsed(function (i) { return kind[i] === 3 || kind[i] === 2; }); });
  $('zoom-in').addEventListener('click', function () { zoomAt(0.5, 0.5); });
  $('zoom-out').addEventListener('click', function () { zoomAt(0.5, 2); });
  $('zoom-fit').addEventListener('click', function () { v0 = 0; v1 = TOTAL; draw(); drawOverviewWindow(); });
  $('d-close').addEventListener('click', function () { select(-1); });

  var searchTimer = 0;
  $('search').addEventListener('input', function () {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () { collapsed.fill(0); refilter(); scroller.scrollTop = 0; }, N > 20000 ? 180 : 60);
  });
  $('search').addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { for (var r = 0; r < nrows; r++) if (keep[rows[r]] & 1) { select(rows[r], true); break; } }
    if (e.key === 'Escape') { this.value = ''; refilter(); scroller.focus(); }
  });
  $('status').addEventListener('change', function () { collapsed.fill(0); refilter(); scroller.scrollTop = 0; });

  // tree clicks
  tree.addEventListener('click', function (e) {
    var r = e.target.closest('.row'); if (!r) return;
    var i = +r.getAttribute('data-i');
    if (e.target.classList.contains('tw')) { collapsed[i] = collapsed[i] ? 0 : 1; rebuild(); return; }
    select(i, false);
  });
  tree.addEventListener('dblclick', function (e) {
    var r = e.target.closest('.row'); if (!r) return;
    select(+r.getAttribute('data-i'), false, true);
  });

  // canvas interactions: click selects, drag pans, ctrl/⌘+wheel zooms, shift+wheel pans
  var drag = null;
  function rowAtY(y) { var ri = Math.floor((scroller.scrollTop + y) / ROW); return ri >= 0 && ri < nrows ? rows[ri] : -1; }
  bars.addEventListener('mousedown', function (e) { drag = { x: e.clientX, v0: v0, v1: v1, moved: false }; });
  window.addEventListener('mousemove', function (e) {
    if (drag) {
      var dx = e.clientX - drag.x; if (Math.abs(dx) > 3) { drag.moved = true; bars.classList.add('panning'); }
      if (drag.moved) { var dt = dx / plotW(BW) * (drag.v1 - drag.v0); v0 = drag.v0 - dt; v1 = drag.v1 - dt; clampView(); draw(); drawOverviewWindow(); }
      hideTip(); return;
    }
    if (brush) { brush.b = Math.max(0, Math.min(AW, e.clientX - axis.getBoundingClientRect().left)); drawAxis(); return; }
    if (ovDrag) { ovMove(e); return; }
  });
  window.addEventListener('mouseup', function (e) {
    if (drag) {
      bars.classList.remove('panning');
      if (!drag.moved) { var rect = bars.getBoundingClientRect(); var i = rowAtY(e.clientY - rect.top); if (i >= 0) select(i, false, e.detail === 2); }
      drag = null;
    }
    if (brush) {
      var a = Math.min(brush.a, brush.b), b = Math.max(brush.a, brush.b); brush = null;
      if (b - a > 4) { var t0 = tAt(a, AW), t1 = tAt(b, AW); v0 = t0; v1 = t1; clampView(); }
      draw(); drawOverviewWindow();
    }
    ovDrag = null;
  });
  function onWheel(e, el) {
    if (e.ctrlKey || e.metaKey || el !== bars) {
      e.preventDefault();
      var rect = el.getBoundingClientRect(), frac = el === ov ? (e.clientX - rect.left - OV_LABEL) / (rect.width - OV_LABEL) : (e.clientX - rect.left - PAD_L) / plotW(rect.width);
      zoomAt(Math.max(0, Math.min(1, frac)), Math.pow(1.0015, e.deltaY));
    } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      e.preventDefault();
      var d = (e.shiftKey ? e.deltaY : e.deltaX) / plotW(BW) * (v1 - v0); v0 += d; v1 += d; clampView(); draw(); drawOverviewWindow();
    }
  }
  bars.addEventListener('wheel', function (e) { onWheel(e, bars); }, { passive: false });
  axis.addEventListener('wheel', function (e) { onWheel(e, axis); }, { passive: false });
  ov.addEventListener('wheel', function (e) { onWheel(e, ov); }, { passive: false });
  var brush = null;
  axis.addEventListener('mousedown', function (e) { var x = e.clientX - axis.getBoundingClientRect().left; brush = { a: x, b: x }; });
  var ovDrag = null;
  function ovTime(e) { var r = ov.getBoundingClientRect(); return Math.max(0, Math.min(1, (e.clientX - r.left - OV_LABEL) / (r.width - OV_LABEL))) * TOTAL; }
  ov.addEventListener('mousedown', function (e) { var t = ovTime(e); ovDrag = { a: t, moved: false }; });
  function ovMove(e) {
    var t = ovTime(e);
    if (Math.abs(t - ovDrag.a) > TOTAL / 400) ovDrag.moved = true;
    if (ovDrag.moved) { v0 = Math.min(ovDrag.a, t); v1 = Math.max(ovDrag.a, t); clampView(); draw(); drawOverviewWindow(); }
  }
  ov.addEventListener('click', function (e) {
    if (ovDrag && ovDrag.moved) return;
    var t = ovTime(e), span = v1 - v0; if (span >= TOTAL) return;
    v0 = t - span / 2; v1 = t + span / 2; clampView(); draw(); drawOverviewWindow();
  });
  ov.addEventListener('dblclick', function () { v0 = 0; v1 = TOTAL; draw(); drawOverviewWindow(); });

  // tooltip on bars
  var tip = $('tip');
  function hideTip() { tip.hidden = true; }
  bars.addEventListener('mousemove', function (e) {
    if (drag) return;
    var rect = bars.getBoundingClientRect(), i = rowAtY(e.clientY - rect.top);
    if (i < 0) { hideTip(); return; }
    var x = e.clientX - rect.left, x0 = xOf(S[i]), x1 = Math.max(xOf(E[i]), x0 + 2);
    if (x < x0 - 4 || x > x1 + 4) { hideTip(); return; }
    var lines = [KINDS[kind[i]] + ' · ' + label(i)];
    var st = status(i); if (st) lines.push(st + (stop(i) ? ' · stop ' + stop(i) : ''));
    lines.push((TIMELESS ? 'seq ' : 'at ') + fmtOff(S[i]) + (D.d[i] >= 0 && !TIMELESS ? ' · ' + fmtDur(D.d[i]) : (flags[i] & F_OPEN) ? ' · open' : ''));
    var u = U[i]; if (u) lines.push(fmtNum(u[1]) + ' in / ' + fmtNum(u[2]) + ' out tokens' + (u[4] ? ' · ' + fmtCost(u[4]) : ''));
    var xx = X[i]; if (xx && xx.error) lines.push('✕ ' + xx.error.message.slice(0, 200));
    if (FI[i]) lines.push('⚠ ' + FI[i][0][1] + ': ' + FI[i][0][3].slice(0, 200));
    tip.textContent = lines.join('\n');
    tip.hidden = false;
    var tx = e.clientX + 14, ty = e.clientY + 14;
    if (tx + 300 > window.innerWidth) tx = e.clientX - 300;
    tip.style.left = tx + 'px'; tip.style.top = ty + 'px';
  });
  bars.addEventListener('mouseleave', hideTip);

  // splitter
  (function () {
    var sp = $('splitter'), start = null;
    sp.addEventListener('mousedown', function (e) { start = { x: e.clientX, w: tree.clientWidth }; e.preventDefault(); });
    window.addEventListener('mousemove', function (e) {
      if (!start) return;
      var w = Math.max(220, Math.min(window.innerWidth - 300, start.w + e.clientX - start.x));
      document.documentElement.style.setProperty('--tree-w', w + 'px'); layoutSoon();
    });
    window.addEventListener('mouseup', function () { start = null; });
  })();

  // keyboard
  document.addEventListener('keydown', function (e) {
    var inInput = e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT');
    if (e.key === '/' && !inInput) { e.preventDefault(); $('search').focus(); return; }
    if (inInput) return;
    var r = selected >= 0 ? rowIndexOf(selected) : -1;
    switch (e.key) {
      case 'ArrowDown': case 'j': e.preventDefault(); if (r + 1 < nrows) select(rows[r + 1], true); break;
      case 'ArrowUp': case 'k': e.preventDefault(); if (r > 0) select(rows[r - 1], true); break;
      case 'ArrowLeft': if (selected >= 0) { e.preventDefault(); if (nkids[selected] && !collapsed[selected]) { collapsed[selected] = 1; rebuild(); } else if (par[selected] >= 0) select(par[selected], true); } break;
      case 'ArrowRight': if (selected >= 0 && collapsed[selected]) { e.preventDefault(); collapsed[selected] = 0; rebuild(); } break;
      case 'Enter': if (selected >= 0) zoomTo(S[selected], E[selected]); break;
      case 'Escape': select(-1); break;
      case 'e': nextOf(failedRows, 1); break;
      case 'E': nextOf(failedRows, -1); break;
      case 'f': nextOf(findingRows, 1); break;
      case '+': case '=': zoomAt(0.5, 0.5); break;
      case '-': zoomAt(0.5, 2); break;
      case '0': v0 = 0; v1 = TOTAL; draw(); drawOverviewWindow(); break;
    }
  });

  scroller.addEventListener('scroll', draw, { passive: true });
  window.addEventListener('resize', function () { layout(); drawOverviewWindow(); drawNow(); });

  // ---- first paint ----
  // #search=TEXT (how the lifecycle map page links to one run) opens the page filtered to it
  if (location.hash.indexOf('#search=') === 0) {
    try { $('search').value = decodeURIComponent(location.hash.slice(8)); } catch (e) { /* a bad escape: no filter */ }
  }
  performance.mark('lifeline-setup');
  layout();
  refilter();
  performance.mark('lifeline-filtered');
  drawOverviewWindow();
  performance.mark('lifeline-overview');
  drawNow();
  performance.mark('lifeline-drawn');
  pending = false;
  requestAnimationFrame(function () {
    performance.mark('lifeline-first-paint');
    document.body.setAttribute('data-ready', '1');
    document.body.setAttribute('data-init-ms', String(Math.round(performance.now() - T0)));
  });

  // a small API for scripts and tests (read-only views of the state)
  window.lifeline = {
    nodes: N,
    rows: function () { return nrows; },
    matches: function () { return filtering ? matches : nrows; },
    selected: function () { return selected; },
    select: function (i) { select(i, true); },
    view: function () { return [v0, v1]; },
    // the node of each chart row drawn in the last frame, top to bottom
    drawn: function () { return drawn.slice(); }
  };
})();

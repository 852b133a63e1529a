(function () {
  'use strict';
  // Every string below comes from the code that was mapped: it only ever reaches the page
  // through textContent, never as markup.
  var D = JSON.parse(document.getElementById('lifeline-data').textContent);
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(p) { for (var i = 1; i < arguments.length; i++) if (arguments[i]) p.appendChild(arguments[i]); return p; }

  // ---- syntax highlighting: one line of Go, Python or TypeScript, as text spans ----
  var KW = {};
  ('break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var ' +
   'and as assert async await class def del elif except finally from global in is lambda nonlocal not or pass raise try while with yield None True False ' +
   'let new this throw typeof instanceof function catch of void delete extends implements export static public private protected readonly enum null undefined true false nil')
    .split(' ').forEach(function (w) { KW[w] = 1; });
  var TOKEN = /(\/\/.*$|#.*$)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`[^`]*`?)|(\b\d[\d_.xXa-fA-F]*\b)|([A-Za-z_$][\w$]*)/g;
  function highlight(line) {
    var e = el('code', 'src');
    line = String(line || '');
    var last = 0, m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(line)) !== null) {
      if (m.index > last) e.appendChild(document.createTextNode(line.slice(last, m.index)));
      var cls = m[1] ? 'com' : m[2] ? 'str' : m[3] ? 'num' : '';
      if (m[4]) {
        if (KW[m[4]]) cls = 'kw';
        else if (line.charAt(TOKEN.lastIndex) === '(') cls = 'fn';
      }
      if (cls) e.appendChild(el('span', cls, m[0])); else e.appendChild(document.createTextNode(m[0]));
      last = TOKEN.lastIndex;
      if (m[0] === '') TOKEN.lastIndex++;
    }
    if (last < line.length) e.appendChild(document.createTextNode(line.slice(last)));
    e.title = line;
    return e;
  }

  // ---- coverage colours: how often traces took an element ----
  function heat(runs) {
    if (!D.max_runs) return '';
    var f = Math.max(0.25, runs / D.max_runs);
    return 'color-mix(in srgb, var(--accent) ' + Math.round(f * 100) + '%, var(--bg3))';
  }
  function takenBadge(t) {
    if (!D.coverage) return null;
    var runs = t ? t.runs : 0;
    var b = el('span', 'taken ' + (runs ? 'some' : 'none'), runs ? runs + (runs === 1 ? ' run' : ' runs') : 'no run');
    if (runs) b.style.background = heat(runs);
    b.title = runs ? runs + ' of the joined runs took this' : 'no joined run took this';
    return b;
  }
  // a position in a narrow column: its last two path elements, the whole in the tooltip
  function posEl(pos) { var parts = String(pos || '').split('/'); var e = el('span', 'pos', parts.slice(-2).join('/')); e.title = pos || ''; return e; }
  function conf(c) { return el('span', 'conf ' + (c || ''), c || 'unknown'); }

  // ---- header ----
  var title = D.title || ('lifecycle map of ' + (D.packages || []).join(', '));
  $('title').textContent = title;
  var T = D.totals;
  var sum = $('summary');
  function stat(label, value, cls) { var s = el('span', cls || ''); add(s, el('b', '', value), document.createTextNode(' ' + label)); sum.appendChild(s); }
  stat(T.Entries === 1 ? 'run entry' : 'run entries', T.Entries);
  stat(T.Loops === 1 ? 'turn loop' : 'turn loops', T.Loops);
  stat(T.Exits === 1 ? 'exit' : 'exits', T.Exits);
  if (D.coverage) {
    stat('exits taken by the traces', T.ExitsTaken + ' / ' + T.Exits, T.ExitsTaken < T.Exits ? 'warn' : '');
    $('untaken-l').hidden = false;
  }
  if (D.profiles && D.profiles.length) stat('profiles: ' + D.profiles.join(', '), '');
  (D.terms || []).forEach(function (t) { $('terms').appendChild(el('div', '', t)); });
  var legend = $('legend');
  [['run entry', 'var(--k-run)'], ['turn loop', 'var(--k-turn)'], ['model call', 'var(--k-model)'], ['tool call', 'var(--k-tool)']].forEach(function (l) {
    var s = el('span'); var i = el('i'); i.style.background = l[1]; add(s, i, document.createTextNode(l[0])); legend.appendChild(s);
  });
  if (D.coverage) {
    var s1 = el('span'); var i1 = el('i'); i1.style.background = heat(D.max_runs || 1); add(s1, i1, document.createTextNode('taken by many runs'));
    var s2 = el('span'); var i2 = el('i'); i2.style.border = '1px dashed var(--warn)'; add(s2, i2, document.createTextNode('taken by none'));
    add(legend, s1, s2);
  }

  // ---- details pane ----
  var selected = null;
  function select(node, kind, name, rows, extra) {
    if (selected) selected.classList.remove('sel');
    selected = node;
    if (node) node.classList.add('sel');
    $('details').hidden = false;
    $('d-kind').textContent = kind;
    $('d-kind').className = 'kind ' + (kind === 'run entry' ? '' : kind.split(' ')[0]);
    $('d-title').textContent = name;
    var body = $('d-body');
    body.textContent = '';
    var dl = el('dl');
    rows.forEach(function (r) {
      if (r[1] === undefined || r[1] === null || r[1] === '') return;
      add(dl, el('dt', '', r[0]), add(el('dd'), typeof r[1] === 'object' ? r[1] : document.createTextNode(String(r[1]))));
    });
    body.appendChild(dl);
    if (extra) extra(body);
  }
  $('d-close').addEventListener('click', function () { $('details').hidden = true; if (selected) selected.classList.remove('sel'); selected = null; });

  // A run's timeline: the --timeline page filtered to it. Only a relative address or an
  // http(s)/file URL is linked (never a script: URL).
  function timelineHref(id) {
    var base = D.timeline || '';
    if (!base || !/^(https?:|file:|[^:]*$)/i.test(base)) return '';
    return base.split('#')[0] + '#search=' + encodeURIComponent(id);
  }
  function runsList(body, t, what) {
    body.appendChild(el('div', 'sub', 'runs that took ' + what));
    if (!t || !t.runs) { body.appendChild(el('div', '', D.coverage ? 'No joined run took it.' : 'No traces were joined (lifeline map --traces).')); return; }
    var ul = el('ul', 'runs');
    (t.run_ids || []).forEach(function (id) {
      var li = el('li');
      var href = timelineHref(id);
      if (href) { var a = el('a', '', id); a.setAttribute('href', href); a.setAttribute('target', '_blank'); a.setAttribute('rel', 'noopener'); li.appendChild(a); }
      else li.textContent = id;
      ul.appendChild(li);
    });
    body.appendChild(ul);
    if (t.runs > (t.run_ids || []).length) body.appendChild(el('div', 'pos', 'and ' + (t.runs - (t.run_ids || []).length) + ' more'));
  }
  function takenText(t) { return D.coverage ? (t ? t.runs : 0) + ' runs' : ''; }

  // ---- the flows ----
  var flows = $('flows');
  var shownLoop = {}; // loop index -> element id of its first drawing
  if (!D.entries.length) flows.appendChild(el('div', 'empty', 'No run entry points found (no turn loop around a model call, no profile or //lifeline:run-entry).'));

  function siteRow(kind, s, loopName) {
    var r = el('div', 'row ' + kind);
    add(r, add(el('span'), el('i', 'dot ' + kind)), el('span', 'what', s.callee + (s.parallel ? '  ∥' : '')), highlight(s.source || s.pos), add(el('span', 'right'), takenBadge(s), posEl(s.pos)));
    r.setAttribute('data-kind', kind);
    r.addEventListener('click', function () {
      select(r, kind + ' call', s.callee, [['at', s.pos], ['in', loopName], ['via', (s.via || []).join(' → ')], ['runs concurrently', s.parallel ? 'yes' : ''], ['confidence', s.conf], ['taken', takenText(s.taken)], ['source', highlight(s.source)]]);
    });
    return r;
  }

  function chip(cls, text, onclick) { var c = el('span', 'chip ' + cls, text); c.addEventListener('click', onclick); return c; }

  function drawLoop(li, entryIdx) {
    var L = D.loops[li];
    var box = el('div', 'loopbox');
    var name = L.kind + ' loop in ' + L.func;
    var head = add(el('div', 'l-head'), el('span', 'kind loop', 'turn loop'), el('span', 'what', name), conf(L.conf), el('span', 'pos', L.pos), takenBadge(L.taken));
    box.appendChild(head);
    if (shownLoop[li] !== undefined) {
      var ref = el('div', 'ref', 'drawn under ');
      var a = el('a', '', D.entries[shownLoop[li].entry].func);
      a.addEventListener('click', function () { var t = $(shownLoop[li].id); t.scrollIntoView({ block: 'center' }); });
      add(ref, a);
      box.appendChild(ref);
      return box;
    }
    box.id = 'loop-' + li;
    shownLoop[li] = { entry: entryIdx, id: box.id };
    box.appendChild(highlight(L.source));
    var chips = el('div', 'chips');
    if (L.bound) {
      var b = L.bound;
      var bt = 'bound ' + b.expr + (b.default ? ' = ' + b.default : '') + (b.optional ? ' (0 = unlimited)' : '');
      add(chips, chip(b.default === 'none' ? 'warn' : 'ok', bt, function () {
        select(this, 'loop bound', b.expr, [['default', b.default], ['default at', b.default_pos], ['unless set', b.default_env], ['optional', b.optional ? 'yes: 0 means unlimited' : ''], ['enforced at', b.pos], ['hit by', takenText(b.taken)], ['source', highlight(b.source)]]);
      }), takenBadge(b.taken));
    } else {
      chips.appendChild(chip('bad', 'no bound', function () { select(this, 'loop bound', 'none', [['loop', name], ['note', 'the loop has no limit of its own']]); }));
    }
    if (L.on_bound) {
      var o = L.on_bound;
      add(chips, chip(o.kind === 'silent' ? 'warn' : '', 'at bound: ' + o.kind + (o.stop_reason ? ' → ' + o.stop_reason : ''), function () {
        select(this, 'loop at bound', o.value || o.kind, [['what happens', o.kind], ['stop reason', o.stop_reason], ['at', o.pos], ['taken', takenText(o.taken)], ['source', highlight(o.source)]]);
      }), takenBadge(o.taken));
    }
    chips.appendChild(chip(L.cancel ? 'ok' : 'bad', L.cancel ? 'checks cancellation' : 'cancellation not checked', function () {
      select(this, 'loop cancellation', name, [['checked between steps', L.cancel ? 'yes' : 'no'], ['at', L.cancel_pos]]);
    }));
    chips.appendChild(chip('', L.parallel ? 'tools in parallel' : 'tools one by one', function () {
      select(this, 'loop tools', name, [['tool calls of one step', L.parallel ? 'may run concurrently' : 'run one after the other']]);
    }));
    box.appendChild(chips);
    if (L.model && L.model.length) { box.appendChild(el('div', 'sub', 'model calls')); L.model.forEach(function (s) { box.appendChild(siteRow('model', s, name)); }); }
    box.appendChild(el('div', 'sub', 'tool calls'));
    if (L.tools && L.tools.length) L.tools.forEach(function (s) { box.appendChild(siteRow('tool', s, name)); });
    else box.appendChild(el('div', 'pos', 'none found'));
    box.addEventListener('dblclick', function () { select(box, 'turn loop', name, [['at', L.pos], ['kind', L.kind], ['confidence', L.conf], ['evidence', (L.evidence || []).join('\n')]]); });
    return box;
  }

  D.entries.forEach(function (E, ei) {
    var card = el('article', 'entry');
    card.setAttribute('data-entry', String(ei));
    var hay = [E.func, E.pos];
    var head = add(el('div', 'e-head'), el('span', 'kind', 'run entry'), el('span', 'name', E.func), conf(E.conf), el('span', 'pos', E.pos));
    head.addEventListener('click', function () { select(card, 'run entry', E.func, [['at', E.pos], ['confidence', E.conf], ['why', E.rule], ['evidence', (E.evidence || []).join('\n')], ['source', highlight(E.source)]]); });
    card.appendChild(head);
    var flow = el('div', 'flow');
    flow.appendChild(highlight(E.source));
    if (!E.loops.length) flow.appendChild(el('div', 'pos', 'turn loop: none found'));
    E.loops.forEach(function (li) {
      var L = D.loops[li];
      hay.push(L.func, L.pos);
      (L.model || []).concat(L.tools || []).forEach(function (s) { hay.push(s.callee, s.pos); });
      add(flow, el('div', 'arrow'), drawLoop(li, ei));
    });
    flow.appendChild(el('div', 'arrow'));
    var ex = el('div', 'exits');
    ex.appendChild(el('div', 'sub', 'exits'));
    if (!E.exits.length) ex.appendChild(el('div', 'pos', 'none found'));
    E.exits.forEach(function (X, xi) {
      var r = el('div', 'exitrow');
      r.setAttribute('data-exit', ei + ':' + xi);
      var runs = X.taken ? X.taken.runs : 0;
      if (D.coverage) {
        r.setAttribute('data-runs', String(runs));
        if (runs) r.style.borderLeftColor = heat(runs); else r.classList.add('untaken');
      }
      var label = X.outcomes ? X.outcomes.join(' | ') : X.outcome + (X.stop_reason ? ' (' + X.stop_reason + ')' : '');
      add(r, el('span', 'outcome o-' + X.outcome, label), posEl(X.pos), highlight(X.source || X.detail), takenBadge(X.taken));
      r.addEventListener('click', function () {
        select(r, 'exit', label, [['at', X.pos], ['in', E.func], ['returns', X.detail], ['taken when', X.guard], ['taken', takenText(X.taken)], ['source', highlight(X.source)]],
          function (body) { runsList(body, X.taken, 'this exit'); });
      });
      hay.push(X.pos, X.detail);
      ex.appendChild(r);
    });
    flow.appendChild(ex);
    if (E.ids && E.ids.length) {
      flow.appendChild(el('div', 'sub', 'ids'));
      E.ids.forEach(function (s) {
        var r = el('div', 'row id');
        add(r, el('span'), el('span', 'what', s.kind + ' ' + s.what), highlight(s.source), el('span', 'pos', s.pos));
        r.addEventListener('click', function () { select(r, 'id site', s.what, [['kind', s.kind], ['at', s.pos], ['source', highlight(s.source)]]); });
        flow.appendChild(r);
      });
    }
    card.appendChild(flow);
    card.setAttribute('data-hay', hay.join('\n').toLowerCase());
    flows.appendChild(card);
  });

  // ---- filters ----
  function refilter() {
    var q = $('search').value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    var only = $('untaken').checked;
    var cards = flows.querySelectorAll('.entry');
    for (var i = 0; i < cards.length; i++) {
      var h = cards[i].getAttribute('data-hay');
      var ok = q.every(function (t) { return h.indexOf(t) >= 0; });
      var exits = cards[i].querySelectorAll('.exitrow');
      var anyUntaken = false;
      for (var j = 0; j < exits.length; j++) {
        var un = exits[j].classList.contains('untaken');
        anyUntaken = anyUntaken || un;
        exits[j].classList.toggle('hidden-exit', only && !un);
      }
      cards[i].classList.toggle('hidden', !ok || (only && !anyUntaken));
    }
  }
  $('search').addEventListener('input', refilter);
  $('untaken').addEventListener('change', refilter);
  document.addEventListener('keydown', function (e) {
    var inInput = e.target && (e.target.tagName === 'INPUT');
    if (e.key === '/' && !inInput) { e.preventDefault(); $('search').focus(); }
    if (e.key === 'Escape') $('d-close').click();
  });

  window.lifeline = {
    entries: D.entries.length,
    visible: function () { return flows.querySelectorAll('.entry:not(.hidden)').length; }
  };
  requestAnimationFrame(function () { document.body.setAttribute('data-ready', '1'); });
})();

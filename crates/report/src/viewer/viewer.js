// arbiter game viewer: draws the games of #viewer-data, steps through them and lists every
// problem. Hand-written, no library, no network. Test contract: #board carries data-fen (the
// position shown, as `arbiter convert --to json --positions` writes it), data-ply, data-file
// and data-game; every .problem entry carries data-file, data-game, data-ply and
// data-severity (error, warning or note: #vw-severity's toggles hide or show each kind).
// Arrows on the board carry data-arrow (last, played, suggested); an ambiguous ply's played
// paths are each move its notation fits, drawn through their squares.
// The data is read after the page has been drawn (a report's charts show at once), and
// #viewer gets data-ready="yes" (and data-ready-ms, the time since navigation) when done.
// A game's moves and positions are one packed string (g.z, see report::viewer::pack),
// unpacked when the game is first opened. #board also carries data-line: "main", or
// "variation" when it shows the position of a problem inside a variation.
// An analysed game (g.a, see report::viewer::analysis_value) adds: #vw-graph with data-evals
// (the evaluation after each ply, first seat's view, comma-separated; empty where unknown);
// classed moves marked in the move list (data-class) and listed in the "Classed moves" tab
// (.classed entries with data-class, data-file, data-game, data-ply: the ply of the move;
// a click shows the position before it); #vw-best with data-best, the engine's choice for the
// next ply when it is not the move played, drawn as a dashed green arrow. A page may open a
// ply from a link: location hash "#ply:FILE-INDEX:GAME:PLY".
(function () {
  'use strict';
  var root = document.getElementById('viewer');
  if (!root) { return; }
  setTimeout(init, 0);
  function init() {
  var data = JSON.parse(document.getElementById('viewer-data').textContent);
  var $ = function (id) { return document.getElementById(id); };
  var PAGE = 100;
  var SVGNS = 'http://www.w3.org/2000/svg';
  var problems = [], classed = [], hasAccuracy = false;
  // A problem's severity (p[2]): 0 note, 1 warning, 2 error.
  var SEV = ['note', 'warning', 'error'], sevCount = [0, 0, 0];
  var CLASS = { i: 'inaccuracy', m: 'mistake', b: 'blunder', w: 'missed-win', s: 'missed-shot', a: 'allowed-shot' };
  var MARK = { inaccuracy: '?!', mistake: '?', blunder: '??', 'missed-win': '?', 'missed-shot': '?', 'allowed-shot': '??' };
  // Labels, tags, codes and messages are indices into data.s; trailing empty fields are left out.
  data.games.forEach(function (g, gi) {
    g.l = data.s[g.l];
    g.t = g.t.map(function (i) { return data.s[i]; });
    if (g.y) { g.y = g.y.map(function (q) { return [data.s[q[0]], data.s[q[1]]]; }); }
    g.p.forEach(function (p, k) {
      p[1] = data.s[p[1]]; p[3] = data.s[p[3]];
      if (p[5] === undefined) { p[5] = null; }
      p[6] = p[6] || []; p[7] = p[7] || [];
      sevCount[p[2]]++;
      problems.push({ g: gi, k: k, s: p[2] });
    });
    if (g.a) {
      var seat = {};
      (g.a.b || []).forEach(function (b) { seat[b[0]] = b[4]; });
      for (var i = 0; i < g.a.k.length; i++) {
        if (CLASS[g.a.k[i]]) { classed.push({ g: gi, ply: i + 1, c: CLASS[g.a.k[i]], s: seat[i + 1] }); }
      }
    }
    if (g.q) { hasAccuracy = true; }
  });
  // Errors first, then warnings, then notes, each kind in run order: a note or a warning of
  // every game should not hide the errors.
  problems = [2, 1, 0].reduce(function (out, sev) {
    return out.concat(problems.filter(function (q) { return q.s === sev; }));
  }, []);
  var st = { tab: root.getAttribute('data-mode') === 'games' ? 'games' : 'problems', page: 0,
    query: '', game: -1, idx: 0, problem: -1, list: [], inVariation: false, only: null,
    shown: [true, true, true] };
  // Every seat with its player (g.y, the tag named after the seat); a game not identified
  // names its White and Black players.
  function seatsOf(g) { return g.y || [['White', text(g.t[0])], ['Black', text(g.t[1])]]; }
  // A seat's player as the analysis names it: the seat's name where the tag is empty or "?".
  function playerOf(g, seat) {
    var q = seatsOf(g)[seat], who = q ? text(q[1]).trim() : '';
    return !q ? '' : who && who !== '?' ? who : g.y ? q[0] : who;
  }
  // The players in one line: "A – B" for two seats, "South: A · West: B …" for more.
  function playersText(g) {
    var seats = seatsOf(g);
    if (!seats.some(function (q) { return q[1]; })) { return ''; }
    if (seats.length <= 2) { return seats.map(function (q) { return text(q[1]); }).join(' – '); }
    return seats.filter(function (q) { return q[1]; }).map(function (q) { return q[0] + ': ' + q[1]; }).join(' · ');
  }
  if (!problems.length) { $('vw-games').tHead.rows[0].cells[6].style.display = 'none'; }
  if (hasAccuracy) {
    var head = $('vw-games').tHead.rows[0];
    ['Accuracy 1st', 'Accuracy 2nd'].forEach(function (h) { var th = el('th', 'n', h); head.appendChild(th); });
  }

  // ---- unpacking a game (the inverse of report::viewer::pack) -------------------------------
  function unesc(s) {
    return s.indexOf('%') < 0 ? s : s.replace(/%(25|7C|7E)/g, function (m, h) { return String.fromCharCode(parseInt(h, 16)); });
  }
  function split(s) { return s ? s.split('|').map(unesc) : []; }
  var OP = /([=+-])([0-9a-z]+)/g;
  function patch(prev, script, dict) {
    var out = [], i = 0, m;
    OP.lastIndex = 0;
    while ((m = OP.exec(script))) {
      var n = parseInt(m[2], 36);
      if (m[1] === '=') { for (var k = 0; k < n; k++) { out.push(prev[i++]); } } else if (m[1] === '-') { i += n; } else { out.push(dict[n]); }
    }
    while (i < prev.length) { out.push(prev[i++]); }
    return out;
  }
  function positions(g) {
    if (g._pos) { return g._pos; }
    var out = [];
    g.m = g.m || [];
    if (g.z) {
      var parts = g.z.split('~'), dict = split(parts[0]), fen = [], items = [];
      parts[1].split(' ').forEach(function (step) {
        var cut = step.indexOf('/');
        fen = patch(fen, step.slice(0, cut), dict); items = patch(items, step.slice(cut + 1), dict);
        out.push({ fen: fen.join(''), items: items });
      });
      g.m = split(parts[2]);
    }
    g._pos = out;
    return out;
  }
  // ---- a game's analysis ------------------------------------------------------------------
  function analysis(g) {
    if (!g.a) { return null; }
    if (g._an) { return g._an; }
    var best = {};
    (g.a.b || []).forEach(function (b) { best[b[0]] = { best: b[1], line: b[2], paths: b[3] || [] }; });
    g._an = {
      evals: g.a.e === '' && !g.a.k.length ? [] : g.a.e.split(',').map(function (v) { return v === '' ? null : +v; }),
      classes: g.a.k, best: best
    };
    return g._an;
  }
  function classAt(an, ply) { return an ? CLASS[an.classes[ply - 1]] || null : null; }
  function evalText(v) {
    if (v == null) { return '?'; }
    if (Math.abs(v) > 90000) { return (v < 0 ? '-#' : '#') + (100000 - Math.abs(v)); }
    return (v >= 0 ? '+' : '') + (v / 100).toFixed(2);
  }
  // The evaluation as winning chances from -1 to 1, the shape the analysis grades moves on.
  function chances(v) { return 2 / (1 + Math.exp(-0.004 * Math.max(-1500, Math.min(1500, v)))) - 1; }
  function graph(g, an, idx) {
    var box = $('vw-graph');
    box.textContent = '';
    if (!an || !an.evals.length) { box.style.display = 'none'; box.removeAttribute('data-evals'); return; }
    box.style.display = '';
    box.setAttribute('data-evals', g.a.e);
    var n = an.evals.length, W = 520, H = 110, pad = 4, step = (W - 2 * pad) / Math.max(1, n);
    var X = function (ply) { return pad + (ply - 0.5) * step; };
    var Y = function (v) { return H / 2 - chances(v) * (H / 2 - pad); };
    var s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'Evaluation graph' });
    // Dark below the curve's complement: the light area is the first seat's share.
    svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#3d4650' }, s);
    var d = 'M' + pad + ' ' + H, last = 0;
    an.evals.forEach(function (v, i) { if (v != null) { last = v; } d += 'L' + X(i + 1) + ' ' + Y(last); });
    d += 'L' + X(n) + ' ' + H + 'Z';
    svg('path', { d: d, fill: '#f3efe6', stroke: '#c9a227', 'stroke-width': 1.2 }, s);
    svg('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: '#9aa7b5', 'stroke-width': 0.8, 'stroke-dasharray': '4 3' }, s);
    svg('line', { x1: X(Math.max(idx, 0.5)), y1: 0, x2: X(Math.max(idx, 0.5)), y2: H, stroke: '#1565c0', 'stroke-width': 1.5 }, s);
    var colours = { inaccuracy: '#e0a000', mistake: '#ef6c00', blunder: '#c62828', 'missed-win': '#6a1b9a', 'missed-shot': '#ad1457', 'allowed-shot': '#8e0000' };
    an.evals.forEach(function (v, i) {
      var c = classAt(an, i + 1);
      if (c) {
        var dot = svg('circle', { cx: X(i + 1), cy: Y(v == null ? 0 : v), r: 4, fill: colours[c], stroke: '#fff', 'stroke-width': 1 }, s);
        dot.setAttribute('data-class', c); dot.setAttribute('data-ply', String(i + 1));
      }
    });
    s.addEventListener('click', function (e) {
      var r = s.getBoundingClientRect();
      var x = (e.clientX - r.left) * W / Math.max(1, r.width);
      go(Math.max(0, Math.min(n, Math.round((x - pad) / step + 0.5))));
    });
    box.appendChild(s);
  }
  // The engine's word on the next ply (the move played from the position shown).
  function bestBox(g, an, idx) {
    var box = $('vw-best'), ply = idx + 1, b = an && an.best[ply], c = classAt(an, ply);
    box.textContent = '';
    box.setAttribute('data-best', b ? b.best : '');
    if (!an || ply > an.evals.length || !(b || c)) { box.style.display = 'none'; return null; }
    box.style.display = '';
    var played = (g.m || [])[ply - 1] || '?';
    box.appendChild(document.createTextNode('Ply ' + ply + ': played '));
    box.appendChild(el('b', c ? 'cl-' + c : null, played + (c ? MARK[c] : '')));
    if (c) { box.appendChild(document.createTextNode(' (' + c + ')')); }
    box.appendChild(document.createTextNode(', then ' + evalText(an.evals[ply - 1])));
    if (b) {
      box.appendChild(document.createTextNode('; the engine plays '));
      box.appendChild(el('b', null, b.best));
      if (b.line && b.line !== b.best) { box.appendChild(document.createTextNode(' (' + b.line + ')')); }
      box.appendChild(document.createTextNode(': dashed green arrow (the move played: solid blue).'));
    }
    return b;
  }

  function text(s) { return s == null ? '' : String(s); }
  function el(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (txt != null) { e.textContent = txt; }
    return e;
  }
  function fileName(g) { return data.files[g.f] || '?'; }
  function baseName(g) { return fileName(g).split(/[\\/]/).pop(); }
  function plyOf(p) { return p[0] == null ? '' : String(p[0]); }

  // ---- the board -------------------------------------------------------------------------
  var SQ = { light: '#f0d9b5', dark: '#b58863', pale: '#faf6ee', plain: '#f4ecd8', grid: '#8a7a5a' };
  var SEATS = ['#d62728', '#1f77b4', '#2ca02c', '#e68c14'];
  function isDark(f, r) { return (f + r) % 2 === 0; }
  function darkNumber(files, ranks, f, r) {
    var n = 0, x, y;
    for (y = ranks - 1; y > r; y--) { for (x = 0; x < files; x++) { if (isDark(x, y)) { n++; } } }
    for (x = 0; x < f; x++) { if (isDark(x, r)) { n++; } }
    return n + 1;
  }
  function svg(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    for (var a in attrs) { e.setAttribute(a, attrs[a]); }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function parseItems(items) {
    var b = { pieces: [], marks: [], move: 0, notes: [], arrows: [] };
    items.forEach(function (it) {
      var body = it.slice(1), c = it.charAt(0);
      if (c === 'p') {
        var q = body.split(','), code = q[2];
        var m = /^(-|\d+)(K?)(?:x(\d+))?(T?)$/.exec(code) || ['', '-', '', '1', ''];
        b.pieces.push({ f: +q[0], r: +q[1], seat: m[1] === '-' ? null : +m[1], king: !!m[2],
          count: m[3] ? +m[3] : 1, twin: !!m[4] });
      } else if (c === 'm') {
        var w = body.split(','); b.marks.push({ f: +w[0], r: +w[1], m: w[2] });
      } else if (c === 't') { b.move = +body; } else if (c === 'n') { b.notes.push(body); } else if (c === 'a') {
        b.arrows.push(body.split(';').map(function (s) { var v = s.split(','); return [+v[0], +v[1]]; }));
      }
    });
    return b;
  }
  function drawBoard(head, items, overlay) {
    var files = head[0], ranks = head[1], style = head[2], seats = head[3];
    var side = 56, left = 28, top = 8, bottom = 26;
    var W = left + files * side + 8, H = top + ranks * side + bottom;
    var s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
    var X = function (f) { return left + f * side; };
    var Y = function (r) { return top + (ranks - 1 - r) * side; };
    var f, r;
    for (r = 0; r < ranks; r++) {
      for (f = 0; f < files; f++) {
        var fill = style === 'plain' ? SQ.plain
          : style === 'checkered' ? (isDark(f, r) ? SQ.dark : SQ.light)
          : ((style === 'turned' ? !isDark(f, r) : isDark(f, r)) ? SQ.dark : SQ.pale);
        svg('rect', { x: X(f), y: Y(r), width: side, height: side, fill: fill,
          stroke: style === 'plain' ? SQ.grid : 'none' }, s);
        if (style === 'dark' && isDark(f, r)) {
          var t = svg('text', { x: X(f) + 3, y: Y(r) + 12, 'font-size': 11, fill: '#f3e6d3' }, s);
          t.textContent = darkNumber(files, ranks, f, r);
        }
      }
    }
    for (f = 0; f < files; f++) {
      var tf = svg('text', { x: X(f) + side / 2, y: H - 8, 'font-size': 14, 'text-anchor': 'middle', fill: '#333' }, s);
      tf.textContent = String.fromCharCode(97 + f);
    }
    for (r = 0; r < ranks; r++) {
      var tr = svg('text', { x: left - 8, y: Y(r) + side / 2 + 5, 'font-size': 14, 'text-anchor': 'end', fill: '#333' }, s);
      tr.textContent = String(r + 1);
    }
    var b = parseItems(items);
    var hl = function (f, r) {
      svg('rect', { x: X(f), y: Y(r), width: side, height: side, fill: 'rgba(255,235,59,0.6)' }, s);
    };
    b.marks.forEach(function (m) {
      if (m.m === 'L') { hl(m.f, m.r); } else {
        var p = 8;
        svg('path', { d: 'M' + (X(m.f) + p) + ' ' + (Y(m.r) + p) + 'L' + (X(m.f) + side - p) + ' ' + (Y(m.r) + side - p) +
          'M' + (X(m.f) + side - p) + ' ' + (Y(m.r) + p) + 'L' + (X(m.f) + p) + ' ' + (Y(m.r) + side - p),
          stroke: SQ.grid, 'stroke-width': 2 }, s);
      }
    });
    (overlay || []).forEach(function (a) { if (a.path.length === 1) { hl(a.path[0][0], a.path[0][1]); } });
    var at = {};
    b.pieces.forEach(function (p) { var k = p.f + ',' + p.r; (at[k] = at[k] || []).push(p); });
    Object.keys(at).forEach(function (k) {
      var list = at[k];
      list.forEach(function (p, i) {
        var n = list.length, rad = side * (n > 1 ? 0.26 : 0.38);
        var cx = X(p.f) + side / 2 + (n > 1 ? (i - (n - 1) / 2) * side * 0.34 : 0);
        var cy = Y(p.r) + side / 2 + (n > 1 ? (i % 2 ? 6 : -6) : 0);
        var fill = '#fafaf5', ink = '#1e1e1e', line = '#1e1e1e', label = '';
        if (p.seat != null && seats.length === 2) {
          if (p.seat === 1) { fill = '#282828'; ink = '#fff'; line = '#c8c8c8'; }
        } else if (p.seat != null) {
          fill = SEATS[p.seat % 4]; ink = '#fff'; line = '#1e1e1e'; label = text(seats[p.seat]).charAt(0);
        }
        if (p.twin) {
          svg('circle', { cx: cx - 4, cy: cy - 4, r: rad, fill: fill, stroke: line, 'stroke-width': 2 }, s);
        }
        svg('circle', { cx: cx, cy: cy, r: rad, fill: fill, stroke: line, 'stroke-width': 2 }, s);
        if (p.king) { svg('circle', { cx: cx, cy: cy, r: rad * 0.6, fill: 'none', stroke: '#d4a017', 'stroke-width': 3 }, s); }
        if (label) {
          var tl = svg('text', { x: cx, y: cy + 5, 'font-size': 14, 'text-anchor': 'middle', fill: ink, 'font-weight': 'bold' }, s);
          tl.textContent = label;
        }
        if (p.count > 1) {
          svg('circle', { cx: cx + rad * 0.8, cy: cy - rad * 0.8, r: 9, fill: '#b4141e' }, s);
          var tc = svg('text', { x: cx + rad * 0.8, y: cy - rad * 0.8 + 4, 'font-size': 12, 'text-anchor': 'middle', fill: '#fff' }, s);
          tc.textContent = String(p.count);
        }
      });
    });
    // A move through the centres of its squares (start, every landing square), as a polyline.
    var arrow = function (path, colour, width, dash, kind) {
      if (path.length < 2) { return; }
      var d = path.map(function (q, i) { return (i ? 'L' : 'M') + (X(q[0]) + side / 2) + ' ' + (Y(q[1]) + side / 2); }).join('');
      var a = { d: d, fill: 'none', stroke: colour, 'stroke-width': width, 'stroke-linecap': 'round',
        'stroke-linejoin': 'round', 'data-arrow': kind, 'data-squares': path.length };
      if (dash) { a['stroke-dasharray'] = dash; }
      svg('path', a, s);
      var e = path[path.length - 1];
      svg('circle', { cx: X(e[0]) + side / 2, cy: Y(e[1]) + side / 2, r: width, fill: colour }, s);
    };
    if (!overlay || overlay.keepLast) { b.arrows.forEach(function (p) { arrow(p, 'rgba(60,60,60,0.45)', 4, null, 'last'); }); }
    // The moves an ambiguous ply fits each get a colour of their own (they may share squares).
    var FITS = ['rgba(21,101,192,0.85)', 'rgba(142,36,170,0.8)', 'rgba(0,131,143,0.85)', 'rgba(230,81,0,0.85)'];
    var nth = 0;
    (overlay || []).forEach(function (a) {
      var colour = a.kind === 'played' ? FITS[overlay.fits ? nth++ % FITS.length : 0] : 'rgba(46,125,50,0.85)';
      arrow(a.path, colour, 6, a.kind === 'played' ? null : '12 8', a.kind);
    });
    return { svg: s, caption: text(seats[b.move]) + ' to move.' + (b.notes.length ? ' ' + b.notes.join(' · ') : '') };
  }

  // ---- one game --------------------------------------------------------------------------
  function show() {
    var g = data.games[st.game], board = $('board');
    if (!g) { return; }
    var pos = positions(g), p = st.problem >= 0 ? g.p[st.problem] : null;
    board.setAttribute('data-file', fileName(g));
    board.setAttribute('data-game', String(g.n));
    var who = playersText(g);
    $('vw-title').textContent = baseName(g) + ', game ' + g.n + ' · ' + text(g.l) +
      (who ? ' · ' + who : '') + (g.t[4] ? ' · ' + g.t[4] : '');
    $('vw-title').title = fileName(g) + '\n' + $('vw-title').textContent;
    board.textContent = '';
    var at = $('vw-at'), pidx = p ? problemIndex(g, p) : -1;
    var inVar = !!(p && p[8] && st.inVariation && g.h);
    var overlayOf = function () {
      var overlay = [];
      p[7].forEach(function (q) { overlay.push({ path: q, kind: 'suggested' }); });
      p[6].forEach(function (q) { overlay.push({ path: q, kind: 'played' }); });
      overlay.fits = ambiguous(p);
      return overlay;
    };
    var draw = function (items, overlay, fen, ply, line) {
      var drawn = drawBoard(g.h, items, overlay);
      board.appendChild(drawn.svg);
      board.appendChild(el('div', 'legend', drawn.caption));
      board.setAttribute('data-fen', fen);
      board.setAttribute('data-ply', ply);
      board.setAttribute('data-line', line);
    };
    document.querySelector('.vw-controls').style.display = pos.length ? '' : 'none';
    if (inVar) {
      // The problem's own position, inside its variation (the main line's are below).
      draw(p[8][1], overlayOf(), p[8][0], String(p[0] - 1), 'variation');
      at.textContent = 'variation, before ply ' + p[0];
    } else if (!pos.length) {
      board.setAttribute('data-fen', ''); board.setAttribute('data-ply', ''); board.setAttribute('data-line', '');
      board.appendChild(el('p', 'legend', g.x ? 'The moves of this game are not in this page (it holds ' +
        'the first games up to its size budget): run arbiter view on its file.'
        : g.r != null ? 'This game was not replayed (' + (g.l === 'Unknown game' ? 'it was not identified as a game ' +
          'arbiter knows' : 'its start position could not be set up') + '), so there is no board: its moves as written follow.'
          : 'This game was not replayed.'));
      if (g.r != null) { board.appendChild(el('pre', 'vw-record', g.r)); }
      at.textContent = '';
    } else {
      st.idx = Math.max(0, Math.min(st.idx, pos.length - 1));
      var cur = pos[st.idx], an = analysis(g), overlay = p && !p[8] && st.idx === pidx ? overlayOf() : null;
      var b = bestBox(g, an, st.idx);
      if (!overlay && b && b.paths.length) {
        // The last move's arrows stay; the move played next (solid blue) and the engine's
        // choice (dashed green) are drawn over them.
        overlay = [];
        var next = pos[st.idx + 1];
        if (next) { parseItems(next.items).arrows.forEach(function (q) { overlay.push({ path: q, kind: 'played' }); }); }
        b.paths.forEach(function (q) { overlay.push({ path: q, kind: 'suggested' }); });
        overlay.keepLast = true;
      }
      draw(cur.items, overlay, cur.fen, String(st.idx), 'main');
      at.textContent = st.idx === 0 ? 'start' : 'after ply ' + st.idx + ' of ' + (pos.length - 1);
    }
    var msg = $('vw-message');
    msg.textContent = '';
    if (p) {
      var box = el('div', 'box ' + SEV[p[2]]);
      box.setAttribute('data-severity', SEV[p[2]]);
      box.appendChild(el('span', 'vw-code ' + SEV[p[2]], p[1]));
      box.appendChild(document.createTextNode((p[0] != null ? 'ply ' + p[0] : 'the game') + ', line ' + p[4] +
        (p[5] ? ', written ' + p[5] : '') + ': ' + p[3]));
      msg.appendChild(box);
      var legend = [];
      if (ambiguous(p)) {
        legend.push('Solid lines, one colour each: every move the notation fits, through its squares.');
      } else if (p[6].some(function (q) { return q.length > 1; })) { legend.push('Solid blue: the move as written.'); }
      if (p[7].some(function (q) { return q.length > 1; })) { legend.push('Dashed green: what the rules accept instead.'); }
      if (p[6].concat(p[7]).some(function (q) { return q.length === 1; })) { legend.push('Yellow: the square the problem names.'); }
      if (p[8] && inVar) {
        legend.push('This ply is in a variation, not in the main line: the board shows the variation\'s position ' +
          'before it. The moves below are the main line; stepping (← →) follows them.');
      } else if (p[8]) {
        legend.push('The problem is in a variation (ply ' + p[0] + ' of it): click it in the list to see its position.');
      } else if (pidx >= 0 && st.idx !== pidx) { legend.push('The problem is at the position after ply ' + pidx + '.'); }
      msg.appendChild(el('div', 'legend', legend.join(' ')));
    }
    if (pos.length) { moves(g, pos); } else { $('vw-moves').textContent = ''; }
    if (!pos.length || inVar) { graph(g, null, 0); bestBox(g, null, 0); } else { graph(g, analysis(g), st.idx); }
  }
  // A ply whose notation fits several moves: its played paths are those moves.
  function ambiguous(p) { return p[1] === 'ambiguous-move' && p[6].length > 1; }
  function problemIndex(g, p) {
    var n = positions(g).length;
    if (!n) { return -1; }
    return p[0] != null ? Math.min(p[0] - 1, n - 1) : n - 1;
  }
  function moves(g, pos) {
    var box = $('vw-moves'), marks = {};
    box.textContent = '';
    g.p.forEach(function (p) {
      if (p[0] != null && !p[8] && p[2] > 0) { marks[p[0]] = marks[p[0]] === 'bad' || p[2] === 2 ? 'bad' : 'warn'; }
    });
    var n = (g.m || []).length;
    var span = function (i, label, cls, onclick) {
      var s = el('span', 'mv' + (cls ? ' ' + cls : ''));
      s.appendChild(el('small', null, String(i)));
      s.appendChild(document.createTextNode(label));
      s.addEventListener('click', onclick);
      box.appendChild(s); box.appendChild(document.createTextNode(' '));
      return s;
    };
    span(0, 'start', st.idx === 0 ? 'cur' : '', function () { go(0); });
    var an = analysis(g);
    for (var i = 1; i <= n; i++) {
      (function (i) {
        var c = classAt(an, i);
        var s = span(i, ' ' + g.m[i - 1] + (c ? MARK[c] : ''), (st.idx === i ? 'cur ' : '') + (marks[i] || '') + (c ? ' cl-' + c : ''), function () {
          var k = firstProblemAt(g, i);
          if (k >= 0 && st.idx === i - 1) { open(st.game, k); } else { go(i); }
        });
        if (c) { s.setAttribute('data-class', c); s.title = c; }
      })(i);
    }
    // A ply the replay refused: its written form, opening its problem.
    var unplayed = function (p) { return p[0] === n + 1 && p[5] && p[2] === 2 && !p[8]; };
    g.p.forEach(function (p, k) {
      if (unplayed(p)) {
        span(n + 1, ' ' + p[5], 'unplayed bad', function () { open(st.game, k); });
      }
    });
    var replayedTo = pos.length ? n + (g.p.some(unplayed) ? 1 : 0) : 0;
    if (g.w > replayedTo && pos.length) {
      box.appendChild(el('span', 'rest', '… ' + (g.w - replayedTo) + ' more plies as written, not replayed'));
    }
  }
  function firstProblemAt(g, ply) {
    for (var k = 0; k < g.p.length; k++) { if (g.p[k][0] === ply && !g.p[k][8]) { return k; } }
    return -1;
  }
  function go(i) {
    if (st.game < 0) { return; }
    var n = positions(data.games[st.game]).length;
    st.idx = Math.max(0, Math.min(i, n - 1));
    st.inVariation = false;
    show();
  }
  function open(gi, k) {
    st.game = gi; st.problem = k;
    var g = data.games[gi];
    st.idx = k >= 0 ? Math.max(0, problemIndex(g, g.p[k])) : 0;
    st.inVariation = k >= 0 && !!g.p[k][8];
    show(); list();
  }

  // ---- the lists -------------------------------------------------------------------------
  function matches(g, extra) {
    if (!st.query) { return true; }
    var hay = (fileName(g) + ' ' + g.n + ' ' + g.l + ' ' + g.t.join(' ') + ' ' +
      seatsOf(g).map(function (q) { return q[1]; }).join(' ') + ' ' + extra).toLowerCase();
    return st.query.split(/\s+/).every(function (w) { return hay.indexOf(w) >= 0; });
  }
  function openPly(gi, ply) {
    st.game = gi; st.problem = -1; st.inVariation = false;
    st.idx = Math.max(0, ply - 1);
    show(); list();
  }
  function list() {
    var games = st.tab === 'games', mv = st.tab === 'moves';
    $('vw-tab-problems').className = games || mv ? '' : 'on';
    $('vw-tab-games').className = games ? 'on' : '';
    $('vw-tab-moves').className = mv ? 'on' : '';
    $('vw-tab-problems').textContent = 'Problems (' + (sevCount[2] + sevCount[1]) +
      (sevCount[0] ? ' + ' + sevCount[0] + ' note' + (sevCount[0] === 1 ? '' : 's') : '') + ')';
    var sevBar = $('vw-severity');
    sevBar.style.display = games || mv || !problems.length ? 'none' : '';
    Array.prototype.forEach.call(sevBar.querySelectorAll('button'), function (b) {
      var k = SEV.indexOf(b.getAttribute('data-severity'));
      b.textContent = sevCount[k] + ' ' + SEV[k] + (sevCount[k] === 1 ? '' : 's');
      b.setAttribute('aria-pressed', st.shown[k] ? 'true' : 'false');
      b.className = 'vw-code ' + SEV[k] + (st.shown[k] ? ' on' : '');
      b.disabled = !sevCount[k];
    });
    $('vw-tab-games').textContent = 'Games (' + data.games.length + ')';
    $('vw-tab-moves').textContent = 'Classed moves (' + classed.length + ')';
    $('vw-tab-moves').style.display = classed.length ? '' : 'none';
    var rows = games
      ? data.games.map(function (g, gi) { return gi; }).filter(function (gi) { return matches(data.games[gi], ''); })
      : mv ? classed.filter(function (q) {
        var g = data.games[q.g];
        if (st.only && (q.c !== st.only.c || playerOf(g, q.s) !== st.only.player)) { return false; }
        return matches(g, q.c + ' ' + playerOf(g, q.s));
      })
      : problems.filter(function (q) {
        var p = data.games[q.g].p[q.k];
        return st.shown[q.s] && matches(data.games[q.g], p[1] + ' ' + p[3]);
      });
    var pages = Math.max(1, Math.ceil(rows.length / PAGE));
    st.page = Math.max(0, Math.min(st.page, pages - 1));
    $('vw-page').textContent = rows.length + ' shown · page ' + (st.page + 1) + ' of ' + pages +
      (mv && st.only ? ' · ' + st.only.c + ' of ' + st.only.player : '');
    var slice = rows.slice(st.page * PAGE, st.page * PAGE + PAGE);
    var ol = $('vw-problems'), tb = $('vw-games').tBodies[0];
    ol.textContent = ''; tb.textContent = '';
    ol.style.display = games ? 'none' : '';
    ol.className = mv ? 'vw-problems vw-classed' : 'vw-problems';
    $('vw-games-wrap').style.display = games ? '' : 'none';
    if (games) {
      slice.forEach(function (gi) {
        var g = data.games[gi], tr = el('tr', gi === st.game ? 'on' : '');
        // Problems: errors and warnings (notes are not faults); the cell's title counts each.
        var by = [0, 0, 0];
        g.p.forEach(function (p) { by[p[2]]++; });
        var cells = [baseName(g), g.n, playersText(g), g.t[2], g.t[3], g.t[4], by[2] + by[1]];
        if (hasAccuracy) { cells.push(g.q ? g.q[0] : '', g.q && g.q.length > 1 ? g.q[1] : ''); }
        cells.forEach(function (v, i) {
          // A page without problems (an analysis report) leaves their column out.
          if (i === 6 && !problems.length) { return; }
          tr.appendChild(el('td', i === 1 || i >= 6 ? 'n' : '', text(v)));
        });
        tr.firstChild.title = fileName(g);
        if (problems.length) { tr.cells[6].title = [2, 1, 0].map(function (k) { return by[k] + ' ' + SEV[k] + (by[k] === 1 ? '' : 's'); }).join(', '); }
        tr.firstChild.className = 'file';
        tr.setAttribute('data-file', fileName(g)); tr.setAttribute('data-game', String(g.n));
        tr.addEventListener('click', function () { open(gi, -1); });
        tb.appendChild(tr);
      });
    } else if (mv) {
      slice.forEach(function (q) {
        var g = data.games[q.g];
        var li = el('li', 'classed' + (q.g === st.game && q.ply === st.idx + 1 ? ' on' : ''));
        li.setAttribute('data-class', q.c);
        li.setAttribute('data-file', fileName(g));
        li.setAttribute('data-game', String(g.n));
        li.setAttribute('data-ply', String(q.ply));
        li.title = fileName(g);
        li.appendChild(el('span', 'vw-code cl-' + q.c, q.c));
        li.appendChild(el('span', 'where', baseName(g) + ' · game ' + g.n + ' · ply ' + q.ply));
        var who = playerOf(g, q.s);
        li.setAttribute('data-player', who);
        li.appendChild(el('div', null, (who ? who + ' · ' : '') + playersText(g)));
        li.addEventListener('click', function () { openPly(q.g, q.ply); });
        ol.appendChild(li);
      });
    } else {
      slice.forEach(function (q) {
        var g = data.games[q.g], p = g.p[q.k];
        var li = el('li', 'problem' + (q.g === st.game && q.k === st.problem ? ' on' : ''));
        li.setAttribute('data-file', fileName(g));
        li.setAttribute('data-game', String(g.n));
        li.setAttribute('data-ply', plyOf(p));
        li.setAttribute('data-code', p[1]);
        li.setAttribute('data-severity', SEV[p[2]]);
        li.appendChild(el('span', 'vw-code ' + SEV[p[2]], p[1]));
        li.title = fileName(g);
        li.appendChild(el('span', 'where', baseName(g) + ' · game ' + g.n + (p[0] != null ? ' · ply ' + p[0] : '') + ' · line ' + p[4]));
        li.appendChild(el('div', null, p[3]));
        li.addEventListener('click', function () { open(q.g, q.k); });
        ol.appendChild(li);
      });
    }
  }

  $('vw-tab-problems').addEventListener('click', function () { st.tab = 'problems'; st.page = 0; list(); });
  $('vw-tab-games').addEventListener('click', function () { st.tab = 'games'; st.page = 0; list(); });
  $('vw-tab-moves').addEventListener('click', function () { st.tab = 'moves'; st.page = 0; st.only = null; list(); });
  // A link "#ply:FILE-INDEX:GAME:PLY" (a report's lists of moves) opens that ply.
  // "#moves:CLASS:PLAYER" (the counts of a report's player table) lists those moves.
  function fromHash() {
    var only = /^#moves:([a-z-]+):(.*)$/.exec(location.hash);
    if (only) {
      st.tab = 'moves'; st.page = 0; st.query = ''; $('vw-search').value = '';
      st.only = { c: only[1], player: decodeURIComponent(only[2]) };
      list(); root.scrollIntoView();
      var first = document.querySelector('#vw-problems .classed');
      if (first) { first.click(); }
      return true;
    }
    var m = /^#ply:(\d+):(\d+):(\d+)$/.exec(location.hash);
    if (!m) { return false; }
    for (var gi = 0; gi < data.games.length; gi++) {
      var g = data.games[gi];
      if (g.f === +m[1] && g.n === +m[2]) { openPly(gi, +m[3]); root.scrollIntoView(); return true; }
    }
    return false;
  }
  window.addEventListener('hashchange', fromHash);
  Array.prototype.forEach.call($('vw-severity').querySelectorAll('button'), function (b) {
    b.addEventListener('click', function () {
      var k = SEV.indexOf(b.getAttribute('data-severity'));
      st.shown[k] = !st.shown[k]; st.page = 0; list();
    });
  });
  $('vw-page-prev').addEventListener('click', function () { st.page--; list(); });
  $('vw-page-next').addEventListener('click', function () { st.page++; list(); });
  $('vw-search').addEventListener('input', function (e) { st.query = e.target.value.trim().toLowerCase(); st.page = 0; list(); });
  $('vw-first').addEventListener('click', function () { go(0); });
  $('vw-prev').addEventListener('click', function () { go(st.idx - 1); });
  $('vw-next').addEventListener('click', function () { go(st.idx + 1); });
  $('vw-last').addEventListener('click', function () { go(1e9); });
  document.addEventListener('keydown', function (e) {
    var t = e.target && e.target.tagName;
    if (t === 'INPUT' || t === 'TEXTAREA' || st.game < 0) { return; }
    var keys = { ArrowLeft: st.idx - 1, ArrowRight: st.idx + 1, Home: 0, End: 1e9 };
    if (e.key in keys) { go(keys[e.key]); e.preventDefault(); }
  });
  list();
  if (fromHash()) { /* opened from the link */ } else if (problems.length && st.tab === 'problems') { open(problems[0].g, problems[0].k); } else if (data.games.length) { open(0, -1); }
  root.setAttribute('data-ready-ms', String(Math.round(performance.now())));
  root.setAttribute('data-ready', 'yes');
  }
})();

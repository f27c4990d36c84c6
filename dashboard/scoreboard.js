// The scoreboard: subscribes to one table's retained state and its decisions, and draws them:
// the cards in the middle, whose turn, each seat, what just happened in words, the winner at the
// end, and while there is no game to show, how to open this page on a phone.
(function () {
  "use strict";
  const query = new URLSearchParams(location.search);
  const table = query.get("table") || "table";
  const broker = query.get("broker") || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host || "localhost:9001"}`;
  const base = `cardtable/${table}`;
  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const GOOD = new Set(["good-slap", "pile-won", "trick-won", "game-won", "game-over", "back-in", "round-won"]);
  const BAD = new Set(["bad-slap", "burned", "strike", "life-lost", "round-lost", "player-out", "revoke", "misplay", "penalty-owed", "card-dead"]);
  const last = [];
  let state = null;
  let tableOnline = null; // null: not heard yet
  let brokerUp = false;
  let lit = { seat: null, until: 0 }; // the seat a decision was about, lit until then (ms)
  const LIT_MS = 1600;

  function connection() {
    const pill = $("connection");
    pill.textContent = !brokerUp ? "connecting" : tableOnline === null ? "waiting for the table" : tableOnline ? "live" : "table away";
    pill.className = brokerUp && tableOnline ? "live" : "";
    const idle = state === null || tableOnline === false;
    $("idle").hidden = !idle;
    $("idle-said").textContent = tableOnline === false ? "The table is resting" : "Waiting for the table";
  }

  // A card as the players see it: its rank in the corner, its suit large, red or black.
  function drawCard(code, top, label) {
    const joker = code === "RJ" || code === "BJ";
    const suit = joker ? "" : code.slice(-1);
    const rank = joker ? "" : code.slice(0, -1).replace("T", "10");
    const red = code === "RJ" || suit === "H" || suit === "D";
    const card = el("div", { className: `card${red ? " red" : ""}${top ? " top" : ""}${joker ? " joker" : ""}` });
    card.dataset.code = code;
    if (joker) {
      card.append(el("div", { className: "pip" }, "JOKER"));
    } else {
      card.append(el("div", { className: "corner" }, rank, el("span", {}, SUITS[suit] || suit)));
      card.append(el("div", { className: "pip" }, SUITS[suit] || suit));
    }
    if (label) {  // a card beside the middle's (the trump card), named under it
      card.classList.add("beside");
      card.append(el("div", { className: "label" }, label));
    }
    return card;
  }

  function draw() {
    const s = state;
    const names = s.seats.map((seat) => seat.name);
    $("title").textContent = s.title || s.game;
    const round = s.round == null ? "" : ` · round ${s.round}`;
    $("game").textContent = `${s.preset}${round}` + (s.paused.length ? ` · paused: ${s.paused.join("; ")}` : "");
    const turn = $("turn");
    if (s.paused.length) turn.replaceChildren("The game is paused");
    else if (s.turn === null || s.turn === undefined) turn.replaceChildren(s.phase === "over" ? "Game over" : "");
    else {
      const what = s.expects && s.expects !== "play" ? s.expects.replace(/-/g, " ") : "";
      turn.replaceChildren(el("span", { className: "who" }, names[s.turn]), "'s turn", el("span", { className: "what" }, what));
    }
    const cards = s.middle.cards;
    const beside = s.middle.beside || [];
    $("cards").style.setProperty("--n", Math.max(1, cards.length + beside.length));
    $("cards").replaceChildren(
      ...beside.map(([label, code]) => drawCard(code, false, label)),
      ...cards.map((code, i) => drawCard(code, i === cards.length - 1)),
    );
    $("middle-title").textContent = s.middle.title;
    $("facts").replaceChildren(...(s.facts || []).map(([label, value]) => el("li", {}, el("b", {}, label), value)));
    const seats = $("seats");
    seats.replaceChildren();
    const crowded = s.seats.length > 5;
    seats.style.setProperty("--per-row", crowded ? Math.ceil(s.seats.length / 2) : s.seats.length);
    seats.classList.toggle("crowded", crowded);
    for (const seat of s.seats) {
      const box = el("div", { className: "seat" });
      box.dataset.seat = seat.seat;
      if (s.turn === seat.seat) box.classList.add("turn");
      if (seat.out) box.classList.add("out");
      if (s.winners.includes(seat.seat)) box.classList.add("winner");
      if (seat.seat === lit.seat && Date.now() < lit.until) box.classList.add("flash"); // redrawn: still lit
      const light = el("span", { className: "light" });
      if (seat.light && seat.light.kind !== "off") { light.style.background = seat.light.colour; light.style.color = seat.light.colour; }
      const shown = String(seat.shown) !== String(seat.score) ? ` · ${seat.shown}` : "";
      box.append(
        el("div", { className: "name" }, light, el("span", {}, seat.name)),
        el("div", { className: "score" }, String(seat.score)),
        el("div", { className: "shown" }, s.score + shown),
        el("div", { className: "note" }, seat.note || ""),
      );
      seats.append(box);
    }
    const history = s.history || [];
    $("history").replaceChildren(...history.map((row, i) => el("tr", {}, ...row.map((cell) => el(i ? "td" : "th", {}, cell)))));
    drawWinner(s, names);
    connection();
  }

  function drawWinner(s, names) {
    const over = s.phase === "over";
    $("winner").hidden = !over;
    if (!over) return;
    const who = s.winners.map((seat) => names[seat]);
    $("winner-name").textContent = who.length ? `${who.join(" and ")} win${who.length === 1 ? "s" : ""}!` : "Nobody wins";
    $("winner-how").textContent = s.ending || "";
    $("figures").replaceChildren(...(s.figures || []).map(([what, value]) => el("li", {}, el("b", {}, value), what)));
    const order = [...s.seats].sort((a, b) => (s.fewest_best ? a.score - b.score : b.score - a.score));
    $("standings").replaceChildren(...order.map((seat, i) => el("li", {}, `${i + 1}. ${seat.name} ${seat.score}`)));
  }

  // Every game this table has kept (the ``standings`` topic): the players best first, the records.
  function drawLeague(league) {
    const best = el("div", {}, el("h3", {}, "All games"),
      el("ol", {}, ...league.standings.slice(0, 6).map(([name, games, wins]) => el("li", {}, `${name}: ${wins} of ${games} won`))));
    const records = el("div", {}, el("h3", {}, "Records"),
      el("ul", {}, ...league.records.map(([what, who, value]) => el("li", {}, `${what}: ${who}, ${value}`))));
    for (const box of document.querySelectorAll(".records")) {
      box.replaceChildren(...(league.standings.length ? [best.cloneNode(true), records.cloneNode(true)] : []));
    }
  }

  // What just happened, in words, newest first; the seat concerned lights up for a moment.
  function decision(event) {
    if (event.kind === "game-started") { last.length = 0; $("last").replaceChildren(); }  // a new game's story
    if (!event.said) return;
    const item = el("li", { textContent: event.said });
    if (GOOD.has(event.kind)) item.classList.add("good");
    if (BAD.has(event.kind)) item.classList.add("bad");
    if (event.close) item.classList.add("close");
    item.dataset.kind = event.kind;
    last.unshift(item);
    last.length = Math.min(last.length, 12);
    $("last").replaceChildren(...last);
    if (typeof event.seat === "number") {
      lit = { seat: event.seat, until: Date.now() + LIT_MS };
      const box = document.querySelector(`.seat[data-seat="${event.seat}"]`);
      if (box) {
        box.classList.remove("flash");
        void box.offsetWidth; // starts the highlight again
        box.classList.add("flash");
      }
    }
  }

  // The way here for a phone: this very page, without anything secret in it; opened on the Pi
  // itself (a loopback address no phone can reach), the address the table gives (``shared``).
  function showAddress(shared) {
    const shown = new URLSearchParams(query);
    shown.delete("pass");
    const loopback = ["localhost", "127.0.0.1", "[::1]", ""].includes(location.hostname);
    const address = shared && loopback ? shared : `${location.origin}${location.pathname}?${shown}`;
    $("address").textContent = address;
    if (typeof qrcode === "function") {
      const qr = qrcode(0, "M");
      qr.addData(address);
      qr.make();
      // The quiet zone the standard asks for, four modules of white, and edges kept sharp.
      $("qr").innerHTML = qr.createSvgTag({ cellSize: 4, margin: 16, scalable: true })
        .replace("<svg ", '<svg shape-rendering="crispEdges" ');
    }
  }

  // The password is asked once and kept in this browser, never in the address (a link or a
  // screenshot of it would carry it); one given in an old link is kept, then taken out of it.
  const user = query.get("user") || undefined;
  const kept = `cardtable password: ${user}@${broker}`;
  if (query.has("pass")) {
    localStorage.setItem(kept, query.get("pass"));
    const shown = new URLSearchParams(query);
    shown.delete("pass");
    history.replaceState(null, "", `${location.pathname}?${shown}`);
  }
  let client = null;

  function askPassword(said) {
    $("login").hidden = false;
    $("login-user").textContent = user;
    $("login-said").textContent = said;
    $("password").focus();
  }

  $("login").addEventListener("submit", (event) => {
    event.preventDefault();
    localStorage.setItem(kept, $("password").value);
    $("password").value = "";
    $("login").hidden = true;
    start();
  });

  function start() {
    if (client) client.end(true);
    const password = user ? localStorage.getItem(kept) : null;
    if (user && password === null) { askPassword(""); return; }
    client = mqtt.connect(broker, { username: user, password: password || undefined, reconnectPeriod: 2000 });
    client.on("error", (error) => {
      // Refused: a wrong or changed password (MQTT 3's code 4 or 5, MQTT 5's 134 or 135).
      if ([4, 5, 134, 135].includes(error.code)) {
        client.end(true);
        localStorage.removeItem(kept);
        askPassword("the broker refused that password");
      }
    });
    listen(client);
  }

  function listen(client) {
    client.on("connect", () => {
      brokerUp = true;
      connection();
      client.subscribe([`${base}/state`, `${base}/availability`, `${base}/events`, `${base}/standings`, `${base}/page`], { qos: 1 });
    });
    client.on("close", () => { brokerUp = false; connection(); });
    // A cleared (empty) or damaged message is skipped: the page keeps what it shows.
    const parsed = (text) => { try { return text ? JSON.parse(text) : null; } catch { return null; } };
    client.on("message", (topic, payload) => {
      const text = payload.toString();
      if (topic === `${base}/availability`) { tableOnline = text === "online"; connection(); return; }
      if (topic === `${base}/page`) { if (/^https?:\/\/\S+$/.test(text)) showAddress(text); return; }
      const data = parsed(text);
      if (data === null || typeof data !== "object") return;
      if (topic === `${base}/state` && Array.isArray(data.seats)) { state = data; draw(); }
      else if (topic === `${base}/events`) decision(data);
      else if (topic === `${base}/standings` && Array.isArray(data.standings)) drawLeague(data);
    });
  }
  showAddress();
  connection();
  start();
})();

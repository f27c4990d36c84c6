// The scoreboard: subscribes to one table's retained state and its decisions, and draws them.
(function () {
  "use strict";
  const query = new URLSearchParams(location.search);
  const table = query.get("table") || "table";
  const broker = query.get("broker") || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host || "localhost:9001"}`;
  const base = `cardtable/${table}`;
  const $ = (id) => document.getElementById(id);
  const last = [];
  let names = [];
  const SEAT_KEYS = new Set(["seat", "challenger", "from_seat"]);
  let tableOnline = false;
  let brokerUp = false;

  function connection() {
    const el = $("connection");
    el.textContent = !brokerUp ? "no broker" : tableOnline ? "live" : "table offline";
    el.className = brokerUp && tableOnline ? "live" : "";
  }

  function cardSpan(code) {
    const span = document.createElement("span");
    span.textContent = code;
    if (/[HD]$/.test(code) || code === "RJ") span.className = "red";
    return span;
  }

  function draw(state) {
    names = state.seats.map((seat) => seat.name);
    $("title").textContent = `${table}`;
    const round = state.round == null ? "" : ` · round ${state.round}`;
    $("game").textContent = `${state.game} (${state.preset})${round} · ${state.phase}` + (state.paused.length ? " · PAUSED" : "");
    const seats = $("seats");
    seats.replaceChildren();
    for (const seat of state.seats) {
      const box = document.createElement("div");
      box.className = "seat";
      box.dataset.seat = seat.seat;
      if (state.turn === seat.seat) box.classList.add("turn");
      if (seat.out) box.classList.add("out");
      if (state.winners.includes(seat.seat)) box.classList.add("winner");
      const name = document.createElement("div");
      name.className = "name";
      const light = document.createElement("span");
      light.className = "light";
      if (seat.light && seat.light.kind !== "off") light.style.background = seat.light.colour;
      name.append(light, seat.name);
      const score = document.createElement("div");
      score.className = "score";
      score.textContent = seat.score;
      const shown = document.createElement("div");
      shown.className = "shown";
      shown.textContent = state.score + (String(seat.shown) !== String(seat.score) ? ` · ${seat.shown}` : "");
      box.append(name, score, shown);
      seats.append(box);
    }
    $("middle-title").textContent = state.middle.title;
    $("cards").replaceChildren(...state.middle.cards.map(cardSpan));
  }

  function decision(event) {
    if (event.kind === "turn") return;
    const said = Object.entries(event).filter(([k]) => k !== "t").map(([k, v]) => {
      if (k === "kind") return v.replace(/-/g, " ");
      if (SEAT_KEYS.has(k) && names[v] !== undefined) return `${k.replace("_", " ")} ${names[v]}`;
      return `${k.replace("_", " ")} ${v}`;
    });
    last.unshift(said.join(", "));
    last.length = Math.min(last.length, 8);
    $("last").replaceChildren(...last.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
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
      client.subscribe([`${base}/state`, `${base}/availability`, `${base}/events`], { qos: 1 });
    });
    client.on("close", () => { brokerUp = false; connection(); });
    // A cleared (empty) or damaged message is skipped: the page keeps what it shows.
    const parsed = (text) => { try { return text ? JSON.parse(text) : null; } catch { return null; } };
    client.on("message", (topic, payload) => {
      const text = payload.toString();
      if (topic === `${base}/availability`) { tableOnline = text === "online"; connection(); return; }
      const data = parsed(text);
      if (data === null || typeof data !== "object") return;
      if (topic === `${base}/state`) draw(data);
      else if (topic === `${base}/events`) decision(data);
    });
  }
  connection();
  start();
})();

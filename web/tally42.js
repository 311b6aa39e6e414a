// The web board's page: MicroPython's WebAssembly port runs the firmware (boards/sim/web.py,
// boards/sim/webmain.py); this file is its hardware. It draws the panel's frames onto the
// canvas, turns clicks and keys into button presses, keeps the journal's flash image in
// IndexedDB, and calls the firmware's main loop one round at a time from a timer.
import { loadMicroPython } from "./micropython.mjs";

const POLL_MS = 10;          // firmware/loop.py _POLL_MS: a round this often
const LONG_MS = 600;         // firmware/buttons.py long_ms: a held button's long press
const LONG = 0x10;           // firmware/codes.py LONG
const FLASH = "/data/journal.img";
const SETTINGS = "/data/settings";
const PAPER = [0xe7, 0xe5, 0xdc];
const INK = [0x1d, 0x1d, 0x1f];
// The sim's keys (host_tools/sim/screen.py): a key held LONG_MS is a long press.
const KEYS = { ArrowLeft: 1, ArrowUp: 1, ArrowRight: 2, ArrowDown: 2, Enter: 3,
               Backspace: 4, m: 5, M: 5 };
const LONG_KEYS = { PageUp: LONG | 1, PageDown: LONG | 2, Tab: LONG | 3 };

const status = document.getElementById("status");
const canvas = document.getElementById("panel");

// ---- IndexedDB: one store, the journal image and the settings file by name ----
function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open("tally42-web", 1);
    req.onupgradeneeded = () => req.result.createObjectStore("files");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
function request(db, mode, fn) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction("files", mode);
    const req = fn(tx.objectStore("files"));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error);
  });
}
// Without a database (a browser that keeps nothing for this page) the scorer runs all
// the same, and says that a reload loses the hands.
const idbGet = (db, key) => db ? request(db, "readonly", (s) => s.get(key)) : undefined;
const idbPut = (db, key, value) =>
  db ? request(db, "readwrite", (s) => s.put(value, key)) : Promise.resolve();
const idbClear = (db) => db ? request(db, "readwrite", (s) => s.clear()) : Promise.resolve();

const T = {           // what the page's tests and benches read (tests/test_web.py)
  ready: false, bootMs: null, presses: 0, frames: 0, drawnAt: 0, downAt: 0, pressedAt: 0, saving: 0, saves: 0,
  error: null,
};
window.tally42 = T;

function fail(e) {
  T.error = String(e && e.message || e);
  status.textContent = "The scorer stopped: " + T.error;
  console.error(e);
}

async function main() {
  let db = null;
  let note = "Ready.";
  try {
    db = await openDb();
  } catch (e) {
    note = "This browser keeps nothing for this page (" + (e && e.message || e) +
           "): the hands are lost at a reload.";
  }
  const [bundle, mp, journal, settings, model] = await Promise.all([
    fetch("firmware.bin").then((r) => {
      if (!r.ok) throw new Error("firmware.bin: " + r.status);
      return r.arrayBuffer();
    }),
    loadMicroPython({ heapsize: 1024 * 1024, linebuffer: true,
                      stdout: (l) => console.log(l), stderr: (l) => console.warn(l) }),
    idbGet(db, "journal"), idbGet(db, "settings"), idbGet(db, "model"),
  ]);
  const FS = mp.FS;
  unpack(FS, new Uint8Array(bundle));
  FS.mkdir("/data");
  if (journal) FS.writeFile(FLASH, journal);
  if (settings) FS.writeFile(SETTINGS, settings);
  const [width, height] = (model || "296x128").split("x").map(Number);
  document.getElementById("model").value = width + "x" + height;
  mp.runPython("import sys\nsys.path.insert(0, '/app')");
  const W = mp.pyimport("boards.sim.webmain");
  const getValue = mp._module.getValue;
  const offset = -new Date().getTimezoneOffset();
  canvas.width = width;
  canvas.height = height;
  // Whole screen pixels a panel pixel (3 on a laptop, 1 on a phone), the e-ink pixels
  // kept square and crisp; only a screen narrower than the panel shrinks it.
  const room = document.querySelector("main").clientWidth - 64;   // the case's margins
  const scale = Math.floor(Math.min(900, room) / width);
  canvas.style.width = (scale >= 1 ? width * scale : room) + "px";
  canvas.style.aspectRatio = width + " / " + height;
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(width, height);
  const stride = (width + 7) >> 3;
  const frame = new Uint8Array(stride * height);

  function draw() {
    // The frame where it lies in the wasm memory (MONO_HLSB, 1 = white paper).
    const addr = W.frame_address();
    for (let i = 0; i < frame.length; i += 4) {
      const v = getValue(addr + i, "i32");
      frame[i] = v & 0xff;
      if (i + 1 < frame.length) frame[i + 1] = (v >> 8) & 0xff;
      if (i + 2 < frame.length) frame[i + 2] = (v >> 16) & 0xff;
      if (i + 3 < frame.length) frame[i + 3] = (v >>> 24) & 0xff;
    }
    const px = image.data;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const on = (frame[y * stride + (x >> 3)] >> (7 - (x & 7))) & 1;
        const c = on ? PAPER : INK;
        const o = (y * width + x) * 4;
        px[o] = c[0]; px[o + 1] = c[1]; px[o + 2] = c[2]; px[o + 3] = 255;
      }
    }
    ctx.putImageData(image, 0, 0);
    T.drawnAt = performance.now();
  }

  // The journal (when the firmware programmed or erased it) and the settings file (when
  // its bytes changed) to IndexedDB, in order.
  let writes = -1;
  let settingsSaved = null;
  let chain = Promise.resolve();
  function save(key, data) {
    T.saving++;
    chain = chain.then(() => idbPut(db, key, data)).then(
      () => { T.saving--; T.saves++; },
      (e) => { T.saving--; fail(e); });
  }
  function persist() {
    const n = W.flash_writes();
    if (n !== writes) {
      writes = n;
      save("journal", FS.readFile(FLASH));
    }
    let data = null;
    try { data = FS.readFile(SETTINGS); } catch (e) { return; }    // none yet
    if (settingsSaved === null || data.length !== settingsSaved.length ||
        data.some((b, i) => b !== settingsSaved[i])) {
      settingsSaved = data;
      save("settings", data);
    }
  }

  T.frames = W.boot(FLASH, SETTINGS, width, height, offset);
  draw();
  persist();
  T.bootMs = T.drawnAt;     // since the page's navigation began (performance.now)
  T.width = width;
  T.height = height;
  T.screen = () => W.screen();
  T.frame = frame;           // the panel's bytes on show (MONO_HLSB), for screenshots
  T.heapUsed = () => W.heap_used();
  T.fault = () => W.fault();
  T.press = press;
  T.settled = () => pending === 0 && T.saving === 0;
  T.ready = true;
  status.textContent = note;

  let pending = 0;    // presses sent that the loop has not taken a round for
  let stopped = false;  // the journal is being wiped: no more rounds, no more saves
  function press(code) {
    if (stopped) return;
    if (W.fault()) {      // the fault's screen says: press to restart
      location.reload();
      return;
    }
    if (!W.press(code)) return;
    T.pressedAt = performance.now();
    T.presses++;
    pending++;
    schedule(0);
  }
  let timer = null;
  function schedule(ms) {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(tick, ms);
  }
  function tick() {
    timer = null;
    if (stopped) return;
    try {
      const frames = W.step();
      pending = W.waiting();    // the loop takes one press a round
      if (frames !== T.frames) {
        T.frames = frames;
        draw();
      }
      persist();
      const why = W.fault();
      if (why) status.textContent = "The firmware stopped (" + why + "): reload the page to restart; every hand is saved.";
    } catch (e) {
      fail(e);
      return;
    }
    schedule(pending ? 0 : POLL_MS);
  }
  schedule(POLL_MS);

  // ---- buttons: short on release, long once held LONG_MS (firmware/buttons.py) ----
  function holder(code, el) {
    let held = null;
    return {
      down() {
        if (held) return;
        if (el) el.classList.add("down");
        held = setTimeout(() => { held = "long"; press(LONG | code); }, LONG_MS);
      },
      up(cancel) {
        if (el) el.classList.remove("down");
        if (held && held !== "long") {
          clearTimeout(held);
          if (!cancel) press(code);
        }
        held = null;
      },
    };
  }
  for (const b of document.querySelectorAll("#buttons button")) {
    const h = holder(Number(b.dataset.code), b);
    b.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      b.setPointerCapture(e.pointerId);
      T.downAt = e.timeStamp;
      h.down();
    });
    b.addEventListener("pointerup", () => h.up(false));
    b.addEventListener("pointercancel", () => h.up(true));
    b.addEventListener("keydown", (e) => { if (e.key === " ") e.preventDefault(); });
  }
  const keyHolders = {};
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.key in LONG_KEYS) {
      e.preventDefault();
      if (!e.repeat) press(LONG_KEYS[e.key]);
      return;
    }
    if (!(e.key in KEYS)) return;
    e.preventDefault();
    if (e.repeat) return;
    (keyHolders[e.key] = keyHolders[e.key] || holder(KEYS[e.key], null)).down();
  });
  document.addEventListener("keyup", (e) => {
    const h = keyHolders[e.key];
    if (h) h.up(false);
  });

  // ---- the tools ----
  function download(name, data, type) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([data], { type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
  document.getElementById("export").addEventListener("click", () => {
    let text;
    try {
      // The PC's own code writes it (host_tools/log/pagelog.py), loaded at the first.
      text = mp.pyimport("host_tools.log.pagelog").newest_log(FLASH, W.device_id());
    } catch (e) {
      status.textContent = "No log: " + (e.message || e);
      return;
    }
    if (!text) {
      status.textContent = "No sitting to export yet: start one from the menu.";
      return;
    }
    const id = JSON.parse(text.split("\n")[0]).id || "sitting";
    download("tally42-" + String(id).replace(/[^A-Za-z0-9_-]/g, "_") + ".jsonl", text,
             "application/x-ndjson");
    status.textContent = "The sitting log is downloaded.";
  });
  document.getElementById("image").addEventListener("click", () => {
    download("tally42-journal.img", FS.readFile(FLASH), "application/octet-stream");
  });
  document.getElementById("model").addEventListener("change", async (e) => {
    await idbPut(db, "model", e.target.value);
    location.reload();
  });
  document.getElementById("wipe").addEventListener("click", async () => {
    if (!confirm("Wipe this scorer? Every sitting kept in this browser is lost " +
                 "(download the logs first).")) return;
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    await chain;
    await idbClear(db);
    location.reload();
  });
}

// firmware.bin (tools/web.py): "T42W", then for each module its path's length (2 bytes,
// little-endian), the path, its length (4 bytes) and its bytes.
function unpack(FS, b) {
  const magic = String.fromCharCode(b[0], b[1], b[2], b[3]);
  if (magic !== "T42W") throw new Error("firmware.bin is not the firmware bundle");
  const text = new TextDecoder();
  let at = 4;
  while (at < b.length) {
    const n = b[at] | (b[at + 1] << 8);
    const path = "/app/" + text.decode(b.subarray(at + 2, at + 2 + n));
    at += 2 + n;
    const size = (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
    at += 4;
    let dir = "";
    for (const part of path.split("/").slice(1, -1)) {
      dir += "/" + part;
      try { FS.mkdir(dir); } catch (e) { /* there already */ }
    }
    FS.writeFile(path, b.subarray(at, at + size));
    at += size;
  }
}

// One scorer a browser: a second tab would write over the first one's journal, so it
// says so and waits for the first to close, then starts (the Web Locks API; where a
// browser has none, the page runs as it is).
async function run(lock) {
  T.elsewhere = false;
  try {
    await main();
  } catch (e) {
    fail(e);
  }
  await new Promise(() => {});    // the lock held while the page is open
}
if (navigator.locks) {
  const LOCK = "tally42-web-scorer";
  navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => {
    if (lock) return run(lock);
    status.textContent = "The scorer is open in another tab of this browser: it " +
                         "starts here when that tab is closed.";
    T.elsewhere = true;
    navigator.locks.request(LOCK, run);     // granted when the other tab lets go
    return null;
  });
} else {
  main().catch(fail);
}

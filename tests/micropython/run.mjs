// Runs Python source under MicroPython (the WebAssembly port) and prints what it prints.
// Usage: node run.mjs FILE... (the files are concatenated, as if one module).
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "fs";

const source = process.argv.slice(2).map((f) => fs.readFileSync(f, "utf8")).join("\n");
const mp = await loadMicroPython({ stdout: (line) => process.stdout.write(line + "\n") });
try {
  mp.runPython(source);
} catch (err) {
  process.stdout.write("MICROPYTHON ERROR: " + err.message + "\n");
  process.exit(1);
}

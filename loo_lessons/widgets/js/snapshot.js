// @ts-check
// The engine's memory snapshot, made smaller for the network: packed by the build
// (scripts/pyc_in_pyodide.mjs, in Node) and unpacked by the page's worker (worker.js), one
// code for both (`self.looSnapshot`).
//
// A Pyodide memory snapshot is the whole wasm memory, and its first 3.5 MB are the runtime's
// static data: the very bytes of the wasm module's data segment, which the page fetches
// anyway (pyodide.asm.wasm.gz), most of them unchanged by the time the snapshot is taken.
// Packed, that stretch holds only its difference from the segment (XOR: mostly zeros), which
// gzip makes almost nothing of (1.3 MB less to fetch); unpacking XORs the same segment back.
//
// Packed form: 16 bytes ("looxor01", then the stretch's offset in the snapshot and its length,
// u32 little-endian), then the snapshot with that stretch XORed. A snapshot without the header
// is passed through as it is.
(function (/** @type {object} */ root) {
  "use strict";
  const MAGIC = "looxor01";
  const HEADER = 16;

  /** The unsigned LEB128 number at `at` in `b`, and where the next thing starts.
   * @param {Uint8Array} b @param {number} at @returns {[number, number]} */
  function uleb(b, at) {
    let value = 0;
    let shift = 0;
    for (;;) {
      const x = b[at++];
      if (x === undefined) throw new Error("wasm: truncated");
      value += (x & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(x & 0x80)) return [value, at];
    }
  }

  /** Past the constant expression (an offset) at `at`: i32.const, i64.const or global.get.
   * @param {Uint8Array} b @param {number} at @returns {number} */
  function skipExpr(b, at) {
    for (;;) {
      const op = b[at++];
      if (op === 0x0b) return at;
      if (op === 0x41 || op === 0x42 || op === 0x23) {
        while (b[at++] & 0x80);
      } else {
        throw new Error(`wasm: unexpected opcode ${op} in a data segment's offset`);
      }
    }
  }

  /** The bytes of the wasm module's one active data segment (the memory's initial contents).
   * @param {Uint8Array} wasm @returns {Uint8Array} */
  function dataSegment(wasm) {
    if (wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) throw new Error("not a wasm module");
    let at = 8;
    while (at < wasm.length) {
      const id = wasm[at++];
      let size;
      [size, at] = uleb(wasm, at);
      if (id === 11) {
        const [count, next] = uleb(wasm, at);
        let p = next;
        const active = [];
        for (let i = 0; i < count; i += 1) {
          let flag;
          [flag, p] = uleb(wasm, p);
          if (flag === 2) [, p] = uleb(wasm, p); // memory index
          if (flag === 0 || flag === 2) p = skipExpr(wasm, p);
          else if (flag !== 1) throw new Error(`wasm: data segment kind ${flag}`);
          let len;
          [len, p] = uleb(wasm, p);
          if (flag !== 1) active.push(wasm.subarray(p, p + len));
          p += len;
        }
        if (active.length !== 1) throw new Error(`wasm: ${active.length} active data segments (one expected)`);
        return active[0];
      }
      at += size;
    }
    throw new Error("wasm: no data section");
  }

  /** @param {Uint8Array} target @param {number} at @param {Uint8Array} seg */
  function xorInto(target, at, seg) {
    for (let i = 0; i < seg.length; i += 1) target[at + i] ^= seg[i];
  }

  /** The packed form's header, or null for a snapshot passed through.
   * @param {Uint8Array} bytes @returns {{at: number, length: number} | null} */
  function header(bytes) {
    const magic = String.fromCharCode(...bytes.subarray(0, MAGIC.length));
    if (bytes.length < HEADER || magic !== MAGIC) return null;
    const v = new DataView(bytes.buffer, bytes.byteOffset, HEADER);
    return { at: v.getUint32(8, true), length: v.getUint32(12, true) };
  }

  /** `snapshot` (Pyodide's, whole) packed against the wasm module `wasm` (both Uint8Array);
   * null when the segment is not where Pyodide's memory starts (a runtime this does not know).
   * @param {Uint8Array} snapshot @param {Uint8Array} wasm @returns {Uint8Array | null} */
  function pack(snapshot, wasm) {
    const seg = dataSegment(wasm);
    const heap = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true); // Pyodide's header length
    const at = heap + 1024; // emscripten's memory base: the segment's address
    if (at + seg.length > snapshot.length) return null;
    let same = 0;
    for (let i = 0; i < seg.length; i += 1) if (snapshot[at + i] === seg[i]) same += 1;
    if (same < seg.length / 2) return null;
    const out = new Uint8Array(HEADER + snapshot.length);
    out.set(new TextEncoder().encode(MAGIC));
    const v = new DataView(out.buffer);
    v.setUint32(8, at, true);
    v.setUint32(12, seg.length, true);
    out.set(snapshot, HEADER);
    xorInto(out, HEADER + at, seg);
    return out;
  }

  /** The snapshot `packed` held, given the same wasm module (throws if it is another).
   * @param {Uint8Array} packed @param {Uint8Array} wasm @returns {Uint8Array} */
  function unpack(packed, wasm) {
    const h = header(packed);
    if (!h) return packed;
    const seg = dataSegment(wasm);
    if (seg.length !== h.length) throw new Error("the snapshot was packed against another runtime");
    const out = packed.subarray(HEADER);
    if (h.at + seg.length > out.length) throw new Error("the snapshot is truncated");
    xorInto(out, h.at, seg);
    return out;
  }

  /** @type {{ looSnapshot?: import("./types").LooSnapshot }} */ (root).looSnapshot = { pack, unpack, dataSegment };
})(typeof self !== "undefined" ? self : globalThis);

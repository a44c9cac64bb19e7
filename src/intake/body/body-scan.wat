;; The body scan of step 2 (src/intake/body/body-scan.ts), in WebAssembly: what JSON.parse would build
;; and where each top-level element lies, in one pass over the bytes. Compiled to
;; src/intake/body/body-scan.wasm.ts by `npm run build:wasm` (a test checks the two agree).
;;
;; Why not JavaScript: the scan runs once per batch, so on a service that just started (or a batch
;; hours after the last one) V8 ran it in its interpreter for the first megabytes. Compiled
;; WebAssembly runs at full speed from the first byte, and reads a string's bytes 16 at a time
;; (SIMD). In the service: 6-10 ms for the supplier's 5.7 MB batch (12-20 in JavaScript), 53-59 ms
;; for 56 MB (92-100).
;;
;; The memory, laid out by body-layout.ts: [0, 256) what each byte means outside strings (the
;; data segments below), then the body at `body`, then 16 bytes of any value (a 16-byte read that
;; starts inside the body ends there; what it finds past the body is never taken for the body's).
;; Nothing else is written: each element's place goes to the imported `element`, each piece's end
;; to the imported `piece`.
(module
  (import "body" "memory" (memory 1 65536 shared))
  ;; Called for each element one level inside the top-level value, when it closes: where it starts
  ;; and where it ends (past its last byte), as offsets from the body's first byte.
  (import "body" "element" (func $element (param i32 i32)))
  ;; Called at a comma one level inside the top-level value that lies at least `pieceBytes` past
  ;; the previous one called (or the body's start): where it is. The commas cut the body into
  ;; pieces that can be parsed one at a time whatever its elements are (scalars included).
  (import "body" "piece" (func $piece (param i32)))

  ;; Byte classes outside strings: 0 passes, 1 quote, 2 comma, 3 opens a container, 4 closes one.
  (data (i32.const 0x22) "\01")   ;; "
  (data (i32.const 0x2c) "\02")   ;; ,
  (data (i32.const 0x5b) "\03")   ;; [
  (data (i32.const 0x5d) "\04")   ;; ]
  (data (i32.const 0x7b) "\03")   ;; {
  (data (i32.const 0x7d) "\04")   ;; }

  ;; The answers (an instance scans one body). Counts are unsigned (a body may have 2 GiB); the
  ;; depth is 64-bit, since stray closers take it below zero.
  (global $containers (export "containers") (mut i32) (i32.const 0))
  (global $commas (export "commas") (mut i32) (i32.const 0))
  (global $maxDepth (export "maxDepth") (mut i64) (i64.const 0))
  (global $depth (export "depth") (mut i64) (i64.const 0))
  ;; Elements one level inside the top-level value.
  (global $count (export "count") (mut i32) (i32.const 0))
  ;; A `\ud` or `\uD` escape was seen in a string (a lone surrogate half is possible).
  (global $surrogateEscape (export "surrogateEscape") (mut i32) (i32.const 0))
  ;; 0 when a string never closes.
  (global $stringsClosed (export "stringsClosed") (mut i32) (i32.const 1))
  ;; The most bytes between a string's quotes (keys included): a string of n bytes has at most n
  ;; characters, so a body whose strings are all short needs no string measured (step 3).
  (global $longestString (export "longestString") (mut i32) (i32.const 0))
  ;; Where the open element and the current piece began: kept between calls.
  (global $elementStart (mut i32) (i32.const 0))
  (global $pieceStart (mut i32) (i32.const 0))

  ;; Scans from $from (the body's start $body on the first call, then what the previous call
  ;; answered) until past $to, and answers where it stopped: at $to, or further when a string runs
  ;; past it, or $end, the body's end. A body is scanned in parts with the event loop let in
  ;; between (a 128 MB body takes ~150 ms). `element` is called for the first $maxElements
  ;; elements only (the rest are counted): a body of 40 million `{}` must not call JavaScript
  ;; 40 million times.
  (func (export "scan") (param $body i32) (param $from i32) (param $to i32) (param $end i32) (param $pieceBytes i32) (param $maxElements i32) (result i32)
    (local $i i32) (local $byte i32) (local $depth i64) (local $count i32) (local $hits i32) (local $elementStart i32)
    (local $pieceStart i32) (local $stringStart i32)
    (local.set $i (local.get $from))
    (if (i32.eq (local.get $from) (local.get $body))
      (then (global.set $pieceStart (local.get $body))))
    (local.set $depth (global.get $depth))
    (local.set $count (global.get $count))
    (local.set $elementStart (global.get $elementStart))
    (local.set $pieceStart (global.get $pieceStart))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
        (local.set $byte (i32.load8_u (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (block $closes
          (block $opens
            (block $comma
              (block $quote
                (br_table $next $quote $comma $opens $closes (i32.load8_u (local.get $byte))))

              ;; A string, from $i: only `"` and `\` matter in it, looked for 16 bytes at a time.
              (local.set $stringStart (local.get $i))
              (loop $inString
                (local.set $hits
                  (i8x16.bitmask
                    (v128.or
                      (i8x16.eq (v128.load (local.get $i)) (i8x16.splat (i32.const 0x22)))
                      (i8x16.eq (v128.load (local.get $i)) (i8x16.splat (i32.const 0x5c))))))
                (if (i32.eqz (local.get $hits))
                  (then
                    (local.set $i (i32.add (local.get $i) (i32.const 16)))
                    (br_if $inString (i32.lt_u (local.get $i) (local.get $end)))
                    (global.set $stringsClosed (i32.const 0))
                    (local.set $i (local.get $end))
                    (br $done)))
                ;; The first quote or backslash of the 16.
                (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $hits))))
                (if (i32.ge_u (local.get $i) (local.get $end))
                  (then
                    (global.set $stringsClosed (i32.const 0))
                    (local.set $i (local.get $end))
                    (br $done)))
                (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 0x5c))
                  (then
                    ;; `\u` then `d` or `D` (0x44 | 0x20 = 0x64), both inside the body.
                    (if (i32.lt_u (i32.add (local.get $i) (i32.const 2)) (local.get $end))
                      (then
                        (if (i32.and
                              (i32.eq (i32.load8_u offset=1 (local.get $i)) (i32.const 0x75))
                              (i32.eq (i32.or (i32.load8_u offset=2 (local.get $i)) (i32.const 0x20)) (i32.const 0x64)))
                          (then (global.set $surrogateEscape (i32.const 1))))))
                    ;; The byte after the backslash is part of the string, whatever it is.
                    (local.set $i (i32.add (local.get $i) (i32.const 2)))
                    (br_if $inString (i32.lt_u (local.get $i) (local.get $end)))
                    (global.set $stringsClosed (i32.const 0))
                    (local.set $i (local.get $end))
                    (br $done))))
              ;; At the closing quote, then past it.
              (if (i32.gt_u (i32.sub (local.get $i) (local.get $stringStart)) (global.get $longestString))
                (then (global.set $longestString (i32.sub (local.get $i) (local.get $stringStart)))))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $next))

            (global.set $commas (i32.add (global.get $commas) (i32.const 1)))
            ;; The comma is at $i - 1.
            (if (i32.and
                  (i64.eq (local.get $depth) (i64.const 1))
                  (i32.ge_u (i32.sub (local.get $i) (local.get $pieceStart)) (local.get $pieceBytes)))
              (then
                (local.set $pieceStart (local.get $i))
                (call $piece (i32.sub (i32.sub (local.get $i) (i32.const 1)) (local.get $body)))))
            (br $next))

          ;; `{` or `[`, at $i - 1.
          (global.set $containers (i32.add (global.get $containers) (i32.const 1)))
          (if (i64.eq (local.get $depth) (i64.const 1))
            (then (local.set $elementStart (i32.sub (local.get $i) (i32.const 1)))))
          (local.set $depth (i64.add (local.get $depth) (i64.const 1)))
          (if (i64.gt_s (local.get $depth) (global.get $maxDepth))
            (then (global.set $maxDepth (local.get $depth))))
          (br $next))

        ;; `}` or `]`: an element ends where it closes back to depth 1.
        (local.set $depth (i64.sub (local.get $depth) (i64.const 1)))
        (if (i64.eq (local.get $depth) (i64.const 1))
          (then
            (if (i32.lt_u (local.get $count) (local.get $maxElements))
              (then
                (call $element
                  (i32.sub (local.get $elementStart) (local.get $body))
                  (i32.sub (local.get $i) (local.get $body)))))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (br $next)))
    (global.set $depth (local.get $depth))
    (global.set $count (local.get $count))
    (global.set $elementStart (local.get $elementStart))
    (global.set $pieceStart (local.get $pieceStart))
    (local.get $i))
)

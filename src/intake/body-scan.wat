;; The body scan of step 2 (src/intake/body-layout.ts), in WebAssembly: what JSON.parse would build
;; and where each top-level element lies, in one pass over the bytes. Compiled to
;; src/intake/body-scan.wasm.ts by `npm run build:wasm` (a test checks the two agree).
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
;; Nothing else is written: each element's place goes to the imported `element`.
(module
  (import "body" "memory" (memory 1 65536 shared))
  ;; Called for each element one level inside the top-level value, when it closes: where it starts
  ;; and where it ends (past its last byte), as offsets from the body's first byte.
  (import "body" "element" (func $element (param i32 i32)))

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

  (func (export "scan") (param $body i32) (param $end i32)
    (local $i i32) (local $byte i32) (local $depth i64) (local $count i32) (local $hits i32) (local $elementStart i32)
    (local.set $i (local.get $body))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $byte (i32.load8_u (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (block $closes
          (block $opens
            (block $comma
              (block $quote
                (br_table $next $quote $comma $opens $closes (i32.load8_u (local.get $byte))))

              ;; A string, from $i: only `"` and `\` matter in it, looked for 16 bytes at a time.
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
                    (br $done)))
                ;; The first quote or backslash of the 16.
                (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $hits))))
                (if (i32.ge_u (local.get $i) (local.get $end))
                  (then
                    (global.set $stringsClosed (i32.const 0))
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
                    (br $done))))
              ;; Past the closing quote.
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $next))

            (global.set $commas (i32.add (global.get $commas) (i32.const 1)))
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
            (call $element
              (i32.sub (local.get $elementStart) (local.get $body))
              (i32.sub (local.get $i) (local.get $body)))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (br $next)))
    (global.set $depth (local.get $depth))
    (global.set $count (local.get $count)))
)

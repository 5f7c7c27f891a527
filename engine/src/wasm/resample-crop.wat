;; The square crop a closer look at a face detects on (closer-look.ts, `resampled`): each crop pixel
;; the mean of taps x taps bilinear samples of an RGB image. The same float64 arithmetic in the same
;; order as the JavaScript, and JavaScript's rounding of the mean, so the crop is exactly the same,
;; without V8's bounds check on each of a sample's twelve reads.
;;
;; Built into resample-crop.wasm by `pnpm --filter @doppel/engine build:wasm`; a test checks the
;; two agree.
(module
  (memory (export "memory") 1)

  ;; A $side x $side RGB crop at $out from the RGB bytes at $image ($rowBytes a row). Crop pixel
  ;; (cx, cy) samples columns cx $taps .. and rows cy $taps .. of the tables: per column the pixel
  ;; left of the sample (int32 at $columnFirst) and its share of the next (float64 at
  ;; $columnShare), per row likewise ($rowFirst, $rowShare).
  (func (export "resample") (param $image i32) (param $rowBytes i32) (param $out i32) (param $side i32) (param $taps i32)
    (param $columnFirst i32) (param $columnShare i32) (param $rowFirst i32) (param $rowShare i32)
    (local $cx i32) (local $cy i32) (local $tx i32) (local $ty i32) (local $lastX i32) (local $lastY i32)
    (local $r f64) (local $g f64) (local $b f64) (local $fx f64) (local $fy f64) (local $above i32) (local $i i32) (local $j i32)
    (local $upper f64) (local $lower f64) (local $count f64) (local $target i32)
    (local.set $count (f64.convert_i32_s (i32.mul (local.get $taps) (local.get $taps))))
    (local.set $target (local.get $out))
    (block $rowsDone (loop $eachRow
      (br_if $rowsDone (i32.ge_s (local.get $cy) (local.get $side)))
      (local.set $cx (i32.const 0))
      (block $pixelsDone (loop $eachPixel
        (br_if $pixelsDone (i32.ge_s (local.get $cx) (local.get $side)))
        (local.set $r (f64.const 0))
        (local.set $g (f64.const 0))
        (local.set $b (f64.const 0))
        (local.set $ty (i32.mul (local.get $cy) (local.get $taps)))
        (local.set $lastY (i32.add (local.get $ty) (local.get $taps)))
        (block $samplesDownDone (loop $eachSampleDown
          (br_if $samplesDownDone (i32.ge_s (local.get $ty) (local.get $lastY)))
          (local.set $fy (f64.load (i32.add (local.get $rowShare) (i32.shl (local.get $ty) (i32.const 3)))))
          (local.set $above (i32.add (local.get $image)
            (i32.mul (i32.load (i32.add (local.get $rowFirst) (i32.shl (local.get $ty) (i32.const 2)))) (local.get $rowBytes))))
          (local.set $tx (i32.mul (local.get $cx) (local.get $taps)))
          (local.set $lastX (i32.add (local.get $tx) (local.get $taps)))
          (block $samplesAcrossDone (loop $eachSampleAcross
            (br_if $samplesAcrossDone (i32.ge_s (local.get $tx) (local.get $lastX)))
            (local.set $fx (f64.load (i32.add (local.get $columnShare) (i32.shl (local.get $tx) (i32.const 3)))))
            (local.set $i (i32.add (local.get $above)
              (i32.mul (i32.load (i32.add (local.get $columnFirst) (i32.shl (local.get $tx) (i32.const 2)))) (i32.const 3))))
            (local.set $j (i32.add (local.get $i) (local.get $rowBytes)))
            ;; Per channel: upper = p + (p' - p) fx on this row, lower the same on the next, then upper + (lower - upper) fy.
            (local.set $upper (f64.add (f64.convert_i32_u (i32.load8_u (local.get $i)))
              (f64.mul (f64.convert_i32_s (i32.sub (i32.load8_u offset=3 (local.get $i)) (i32.load8_u (local.get $i)))) (local.get $fx))))
            (local.set $lower (f64.add (f64.convert_i32_u (i32.load8_u (local.get $j)))
              (f64.mul (f64.convert_i32_s (i32.sub (i32.load8_u offset=3 (local.get $j)) (i32.load8_u (local.get $j)))) (local.get $fx))))
            (local.set $r (f64.add (local.get $r) (f64.add (local.get $upper) (f64.mul (f64.sub (local.get $lower) (local.get $upper)) (local.get $fy)))))
            (local.set $upper (f64.add (f64.convert_i32_u (i32.load8_u offset=1 (local.get $i)))
              (f64.mul (f64.convert_i32_s (i32.sub (i32.load8_u offset=4 (local.get $i)) (i32.load8_u offset=1 (local.get $i)))) (local.get $fx))))
            (local.set $lower (f64.add (f64.convert_i32_u (i32.load8_u offset=1 (local.get $j)))
              (f64.mul (f64.convert_i32_s (i32.sub (i32.load8_u offset=4 (local.get $j)) (i32.load8_u offset=1 (local.get $j)))) (local.get $fx))))
            (local.set $g (f64.add (local.get $g) (f64.add (local.get $upper) (f64.mul (f64.sub (local.get $lower) (local.get $upper)) (local.get $fy)))))
            (local.set $upper (f64.add (f64.convert_i32_u (i32.load8_u offset=2 (local.get $i)))
              (f64.mul (f64.convert_i32_s (i32.sub (i32.load8_u offset=5 (local.get $i)) (i32.load8_u offset=2 (local.get $i)))) (local.get $fx))))
            (local.set $lower (f64.add (f64.convert_i32_u (i32.load8_u offset=2 (local.get $j)))
              (f64.mul (f64.convert_i32_s (i32.sub (i32.load8_u offset=5 (local.get $j)) (i32.load8_u offset=2 (local.get $j)))) (local.get $fx))))
            (local.set $b (f64.add (local.get $b) (f64.add (local.get $upper) (f64.mul (f64.sub (local.get $lower) (local.get $upper)) (local.get $fy)))))
            (local.set $tx (i32.add (local.get $tx) (i32.const 1)))
            (br $eachSampleAcross)))
          (local.set $ty (i32.add (local.get $ty) (i32.const 1)))
          (br $eachSampleDown)))
        (i32.store8 (local.get $target) (call $round (f64.div (local.get $r) (local.get $count))))
        (i32.store8 offset=1 (local.get $target) (call $round (f64.div (local.get $g) (local.get $count))))
        (i32.store8 offset=2 (local.get $target) (call $round (f64.div (local.get $b) (local.get $count))))
        (local.set $target (i32.add (local.get $target) (i32.const 3)))
        (local.set $cx (i32.add (local.get $cx) (i32.const 1)))
        (br $eachPixel)))
      (local.set $cy (i32.add (local.get $cy) (i32.const 1)))
      (br $eachRow)))
  )

  ;; JavaScript's Math.round of a value from 0 to 255: halves go up. The value less its floor is
  ;; exact here, where floor(v + 0.5) would round v + 0.5 first.
  (func $round (param $v f64) (result i32)
    (local $whole f64)
    (local.set $whole (f64.floor (local.get $v)))
    (i32.add (i32.trunc_f64_s (local.get $whole)) (f64.ge (f64.sub (local.get $v) (local.get $whole)) (f64.const 0.5))))
)

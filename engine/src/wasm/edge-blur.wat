;; The two loops of how blurred a face's feature edges are (match-sharpness.ts, `edgeBlur`): the
;; lightness gradients of the feature pixels with their histogram, and the lightness range around
;; the steepest of them. The same float64 arithmetic as the JavaScript, the lightness and the
;; gradients kept as float32 as it kept them, so the measure is exactly the same, without V8's
;; bounds check on each of a range's 49 reads.
;;
;; Built into edge-blur.wasm by `pnpm --filter @doppel/engine build:wasm`; a test checks the two
;; agree.
(module
  (memory (export "memory") 1)

  ;; Every pixel's lightness (0.299 r + 0.587 g + 0.114 b of the float32 RGB at $rgb) as float32 at
  ;; $light; then on every $rowStep-th row from $edge, $edge pixels in from each side, each pixel
  ;; whose byte at $features is set: half the length of its central-difference gradient, written
  ;; as float32 at $gradients (0 elsewhere and below $least) and counted in the int32 histogram of
  ;; $steps quarter levels at $histogram (the last step taking all steeper). Returns the pixels
  ;; counted.
  (func (export "gradients") (param $rgb i32) (param $features i32) (param $light i32) (param $gradients i32) (param $histogram i32)
    (param $width i32) (param $height i32) (param $edge i32) (param $rowStep i32) (param $least f64) (param $steps i32) (result i32)
    (local $p i32) (local $pixels i32) (local $in i32) (local $y i32) (local $end i32) (local $at i32)
    (local $gx f64) (local $gy f64) (local $gradient f64) (local $step i32) (local $count i32) (local $row i32)
    (local.set $pixels (i32.mul (local.get $width) (local.get $height)))
    (local.set $in (local.get $rgb))
    (block $lit (loop $eachPixel
      (br_if $lit (i32.ge_s (local.get $p) (local.get $pixels)))
      (f32.store (i32.add (local.get $light) (i32.shl (local.get $p) (i32.const 2)))
        (f32.demote_f64 (f64.add (f64.add
          (f64.mul (f64.const 0.299) (f64.promote_f32 (f32.load (local.get $in))))
          (f64.mul (f64.const 0.587) (f64.promote_f32 (f32.load offset=4 (local.get $in)))))
          (f64.mul (f64.const 0.114) (f64.promote_f32 (f32.load offset=8 (local.get $in)))))))
      (local.set $in (i32.add (local.get $in) (i32.const 12)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $eachPixel)))
    (memory.fill (local.get $gradients) (i32.const 0) (i32.shl (local.get $pixels) (i32.const 2)))
    (memory.fill (local.get $histogram) (i32.const 0) (i32.shl (local.get $steps) (i32.const 2)))
    (local.set $row (i32.shl (local.get $width) (i32.const 2)))
    (local.set $y (local.get $edge))
    (block $rowsDone (loop $eachRow
      (br_if $rowsDone (i32.ge_s (local.get $y) (i32.sub (local.get $height) (local.get $edge))))
      (local.set $p (i32.add (i32.mul (local.get $y) (local.get $width)) (local.get $edge)))
      (local.set $end (i32.sub (i32.mul (i32.add (local.get $y) (i32.const 1)) (local.get $width)) (local.get $edge)))
      (block $pixelsDone (loop $eachFeature
        (br_if $pixelsDone (i32.ge_s (local.get $p) (local.get $end)))
        (if (i32.load8_u (i32.add (local.get $features) (local.get $p))) (then
          (local.set $at (i32.add (local.get $light) (i32.shl (local.get $p) (i32.const 2))))
          (local.set $gx (f64.sub (f64.promote_f32 (f32.load offset=4 (local.get $at))) (f64.promote_f32 (f32.load (i32.sub (local.get $at) (i32.const 4))))))
          (local.set $gy (f64.sub (f64.promote_f32 (f32.load (i32.add (local.get $at) (local.get $row))))
            (f64.promote_f32 (f32.load (i32.sub (local.get $at) (local.get $row))))))
          (local.set $gradient (f64.div (f64.sqrt (f64.add (f64.mul (local.get $gx) (local.get $gx)) (f64.mul (local.get $gy) (local.get $gy)))) (f64.const 2)))
          (if (f64.ge (local.get $gradient) (local.get $least)) (then
            (f32.store (i32.add (local.get $gradients) (i32.shl (local.get $p) (i32.const 2))) (f32.demote_f64 (local.get $gradient)))
            (local.set $step (i32.trunc_f64_s (f64.floor (f64.mul (local.get $gradient) (f64.const 4)))))
            (local.set $step (select (i32.sub (local.get $steps) (i32.const 1)) (local.get $step)
              (i32.gt_s (local.get $step) (i32.sub (local.get $steps) (i32.const 1)))))
            (local.set $at (i32.add (local.get $histogram) (i32.shl (local.get $step) (i32.const 2))))
            (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $eachFeature)))
      (local.set $y (i32.add (local.get $y) (local.get $rowStep)))
      (br $eachRow)))
    (local.get $count)
  )

  ;; On the same rows, for each pixel whose gradient at $gradients is at least $threshold: the
  ;; range of the lightness at $light over the square $edge pixels around it; where that is at
  ;; least $contrast, range / (gradient $norm) is written as float64 at $blurs. Returns how many.
  (func (export "ranges") (param $light i32) (param $gradients i32) (param $blurs i32) (param $width i32) (param $height i32)
    (param $edge i32) (param $rowStep i32) (param $threshold f64) (param $contrast f64) (param $norm f64) (result i32)
    (local $y i32) (local $p i32) (local $end i32) (local $gradient f64) (local $low f64) (local $high f64)
    (local $dy i32) (local $q i32) (local $last i32) (local $v f64) (local $n i32)
    (local.set $y (local.get $edge))
    (block $rowsDone (loop $eachRow
      (br_if $rowsDone (i32.ge_s (local.get $y) (i32.sub (local.get $height) (local.get $edge))))
      (local.set $p (i32.add (i32.mul (local.get $y) (local.get $width)) (local.get $edge)))
      (local.set $end (i32.sub (i32.mul (i32.add (local.get $y) (i32.const 1)) (local.get $width)) (local.get $edge)))
      (block $pixelsDone (loop $eachPixel
        (br_if $pixelsDone (i32.ge_s (local.get $p) (local.get $end)))
        (local.set $gradient (f64.promote_f32 (f32.load (i32.add (local.get $gradients) (i32.shl (local.get $p) (i32.const 2))))))
        (if (f64.ge (local.get $gradient) (local.get $threshold)) (then
          (local.set $low (f64.const inf))
          (local.set $high (f64.const -inf))
          (local.set $dy (i32.sub (i32.const 0) (local.get $edge)))
          (block $windowDone (loop $eachWindowRow
            (br_if $windowDone (i32.gt_s (local.get $dy) (local.get $edge)))
            (local.set $q (i32.sub (i32.add (local.get $p) (i32.mul (local.get $dy) (local.get $width))) (local.get $edge)))
            (local.set $last (i32.add (local.get $q) (i32.shl (local.get $edge) (i32.const 1))))
            (block $windowRowDone (loop $eachWindowPixel
              (br_if $windowRowDone (i32.gt_s (local.get $q) (local.get $last)))
              (local.set $v (f64.promote_f32 (f32.load (i32.add (local.get $light) (i32.shl (local.get $q) (i32.const 2))))))
              (local.set $low (f64.min (local.get $low) (local.get $v)))
              (local.set $high (f64.max (local.get $high) (local.get $v)))
              (local.set $q (i32.add (local.get $q) (i32.const 1)))
              (br $eachWindowPixel)))
            (local.set $dy (i32.add (local.get $dy) (i32.const 1)))
            (br $eachWindowRow)))
          (if (f64.ge (f64.sub (local.get $high) (local.get $low)) (local.get $contrast)) (then
            (f64.store (i32.add (local.get $blurs) (i32.shl (local.get $n) (i32.const 3)))
              (f64.div (f64.sub (local.get $high) (local.get $low)) (f64.mul (local.get $gradient) (local.get $norm))))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $eachPixel)))
      (local.set $y (i32.add (local.get $y) (local.get $rowStep)))
      (br $eachRow)))
    (local.get $n)
  )
)

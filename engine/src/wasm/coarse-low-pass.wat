;; The two full-box loops of the wide masked low-passes (masked-blur.ts, `coarseLowPass` and
;; `coarseMapLowPass`): the masked pixels gathered into cells, and the blurred cells interpolated
;; back at the pixels asked for.
;; Each does the arithmetic the JavaScript did, in its order and its precision (cell sums in
;; float32, one pixel after another; the interpolation in float64, rounded to float32 once), so the
;; output is exactly the same, without V8's bounds check on every read.
;;
;; Built into coarse-low-pass.wasm by `pnpm --filter @doppel/engine build:wasm`; a test checks the
;; two agree.
(module
  (memory (export "memory") 1)

  ;; Per cell of $factor x $factor pixels ($cellsAcross cells a row), the float32 sums of the three
  ;; channels at $values and the count of the pixels whose byte at $mask is set, as four float32 at
  ;; $cells (zeroed here first); the box is $width x $height pixels. A cell's sums are kept in
  ;; registers across its pixels of a row: the same float32 additions, in the same order, as adding
  ;; each pixel into the stored sums.
  (func (export "gather") (param $values i32) (param $mask i32) (param $cells i32) (param $width i32) (param $height i32)
    (param $factor i32) (param $cellsAcross i32) (param $cellsDown i32)
    (local $y i32) (local $x0 i32) (local $p i32) (local $end i32) (local $at i32) (local $in i32)
    (local $r f32) (local $g f32) (local $b f32) (local $n f32)
    (memory.fill (local.get $cells) (i32.const 0) (i32.shl (i32.mul (local.get $cellsAcross) (local.get $cellsDown)) (i32.const 4)))
    (block $rowsDone (loop $eachRow
      (br_if $rowsDone (i32.ge_s (local.get $y) (local.get $height)))
      (local.set $at (i32.add (local.get $cells)
        (i32.shl (i32.mul (i32.div_u (local.get $y) (local.get $factor)) (local.get $cellsAcross)) (i32.const 4))))
      (local.set $x0 (i32.const 0))
      (block $cellsDone (loop $eachCell
        (br_if $cellsDone (i32.ge_s (local.get $x0) (local.get $width)))
        (local.set $r (f32.load (local.get $at)))
        (local.set $g (f32.load offset=4 (local.get $at)))
        (local.set $b (f32.load offset=8 (local.get $at)))
        (local.set $n (f32.load offset=12 (local.get $at)))
        (local.set $p (i32.add (i32.mul (local.get $y) (local.get $width)) (local.get $x0)))
        (local.set $end (i32.add (local.get $x0) (local.get $factor)))
        (local.set $end (i32.add (i32.mul (local.get $y) (local.get $width))
          (select (local.get $width) (local.get $end) (i32.gt_s (local.get $end) (local.get $width)))))
        (block $pixelsDone (loop $eachPixel
          (br_if $pixelsDone (i32.ge_s (local.get $p) (local.get $end)))
          (if (i32.load8_u (i32.add (local.get $mask) (local.get $p))) (then
            (local.set $in (i32.add (local.get $values) (i32.mul (local.get $p) (i32.const 12))))
            (local.set $r (f32.add (local.get $r) (f32.load (local.get $in))))
            (local.set $g (f32.add (local.get $g) (f32.load offset=4 (local.get $in))))
            (local.set $b (f32.add (local.get $b) (f32.load offset=8 (local.get $in))))
            (local.set $n (f32.add (local.get $n) (f32.const 1)))))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br $eachPixel)))
        (f32.store (local.get $at) (local.get $r))
        (f32.store offset=4 (local.get $at) (local.get $g))
        (f32.store offset=8 (local.get $at) (local.get $b))
        (f32.store offset=12 (local.get $at) (local.get $n))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (local.set $x0 (i32.add (local.get $x0) (local.get $factor)))
        (br $eachCell)))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br $eachRow)))
  )

  ;; The four float32 channels of the cells at $cells ($cellsAcross a row) interpolated bilinearly at
  ;; $count pixels of a box $width pixels wide, as four float32 each at $out: the pixels listed as
  ;; int32 at $at, or (with $at 0) every pixel in turn. The tables of `between` (working-grid.ts)
  ;; give each column's and row's two cells (int32) and share (float64). Channels go two at a time,
  ;; each in its own float64 lane: the same arithmetic as one at a time.
  (func (export "interpolate") (param $cells i32) (param $cellsAcross i32) (param $at i32) (param $count i32) (param $width i32) (param $out i32)
    (param $left i32) (param $right i32) (param $across i32) (param $above i32) (param $below i32) (param $down i32)
    (local $n i32) (local $p i32) (local $x i32) (local $y i32) (local $fx v128) (local $fy v128)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32) (local $top i32) (local $bottom i32) (local $k i32)
    (local $va v128) (local $vc v128) (local $upper v128) (local $lower v128) (local $pair v128) (local $target i32)
    (block $done (loop $eachPixel
      (br_if $done (i32.ge_s (local.get $n) (local.get $count)))
      (local.set $p (select (i32.load (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 2)))) (local.get $n) (local.get $at)))
      (local.set $x (i32.rem_u (local.get $p) (local.get $width)))
      (local.set $y (i32.div_u (local.get $p) (local.get $width)))
      (local.set $fx (f64x2.splat (f64.load (i32.add (local.get $across) (i32.shl (local.get $x) (i32.const 3))))))
      (local.set $fy (f64x2.splat (f64.load (i32.add (local.get $down) (i32.shl (local.get $y) (i32.const 3))))))
      (local.set $top (i32.mul (i32.load (i32.add (local.get $above) (i32.shl (local.get $y) (i32.const 2)))) (local.get $cellsAcross)))
      (local.set $bottom (i32.mul (i32.load (i32.add (local.get $below) (i32.shl (local.get $y) (i32.const 2)))) (local.get $cellsAcross)))
      (local.set $k (i32.load (i32.add (local.get $left) (i32.shl (local.get $x) (i32.const 2)))))
      (local.set $a (i32.add (local.get $cells) (i32.shl (i32.add (local.get $top) (local.get $k)) (i32.const 4))))
      (local.set $c (i32.add (local.get $cells) (i32.shl (i32.add (local.get $bottom) (local.get $k)) (i32.const 4))))
      (local.set $k (i32.load (i32.add (local.get $right) (i32.shl (local.get $x) (i32.const 2)))))
      (local.set $b (i32.add (local.get $cells) (i32.shl (i32.add (local.get $top) (local.get $k)) (i32.const 4))))
      (local.set $d (i32.add (local.get $cells) (i32.shl (i32.add (local.get $bottom) (local.get $k)) (i32.const 4))))
      (local.set $target (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 4))))
      ;; Channels 0 and 1, then 2 and 3: top = a + fx (b - a), bottom = c + fx (d - c), top + fy (bottom - top).
      (local.set $k (i32.const 0))
      (block $pairsDone (loop $eachPair
        (br_if $pairsDone (i32.ge_s (local.get $k) (i32.const 16)))
        (local.set $va (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $a) (local.get $k)))))
        (local.set $upper (f64x2.add (local.get $va) (f64x2.mul (local.get $fx)
          (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $b) (local.get $k)))) (local.get $va)))))
        (local.set $vc (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c) (local.get $k)))))
        (local.set $lower (f64x2.add (local.get $vc) (f64x2.mul (local.get $fx)
          (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $d) (local.get $k)))) (local.get $vc)))))
        (local.set $pair (f64x2.add (local.get $upper) (f64x2.mul (local.get $fy) (f64x2.sub (local.get $lower) (local.get $upper)))))
        (v128.store64_lane 0 (i32.add (local.get $target) (local.get $k)) (f32x4.demote_f64x2_zero (local.get $pair)))
        (local.set $k (i32.add (local.get $k) (i32.const 8)))
        (br $eachPair)))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $eachPixel)))
  )

  ;; For a one-channel map: per cell, the sum of the float32 map at $map over the pixels whose byte
  ;; at $mask is set (every pixel with $mask 0) and their count, as two float32 at $cells (zeroed
  ;; here first). Each row of a cell is summed in float64 and added into the cell's float32.
  (func (export "gatherMap") (param $map i32) (param $mask i32) (param $cells i32) (param $width i32) (param $height i32)
    (param $factor i32) (param $cellsAcross i32) (param $cellsDown i32)
    (local $y i32) (local $x0 i32) (local $p i32) (local $end i32) (local $at i32) (local $sum f64) (local $n f64)
    (memory.fill (local.get $cells) (i32.const 0) (i32.shl (i32.mul (local.get $cellsAcross) (local.get $cellsDown)) (i32.const 3)))
    (block $rowsDone (loop $eachRow
      (br_if $rowsDone (i32.ge_s (local.get $y) (local.get $height)))
      (local.set $at (i32.add (local.get $cells)
        (i32.shl (i32.mul (i32.div_u (local.get $y) (local.get $factor)) (local.get $cellsAcross)) (i32.const 3))))
      (local.set $x0 (i32.const 0))
      (block $cellsDone (loop $eachCell
        (br_if $cellsDone (i32.ge_s (local.get $x0) (local.get $width)))
        (local.set $sum (f64.const 0))
        (local.set $n (f64.const 0))
        (local.set $p (i32.add (i32.mul (local.get $y) (local.get $width)) (local.get $x0)))
        (local.set $end (i32.add (local.get $x0) (local.get $factor)))
        (local.set $end (i32.add (i32.mul (local.get $y) (local.get $width))
          (select (local.get $width) (local.get $end) (i32.gt_s (local.get $end) (local.get $width)))))
        (block $pixelsDone (loop $eachPixel
          (br_if $pixelsDone (i32.ge_s (local.get $p) (local.get $end)))
          (if (i32.or (i32.eqz (local.get $mask)) (i32.load8_u (i32.add (local.get $mask) (local.get $p)))) (then
            (local.set $sum (f64.add (local.get $sum) (f64.promote_f32 (f32.load (i32.add (local.get $map) (i32.shl (local.get $p) (i32.const 2)))))))
            (local.set $n (f64.add (local.get $n) (f64.const 1)))))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br $eachPixel)))
        (f32.store (local.get $at) (f32.demote_f64 (f64.add (f64.promote_f32 (f32.load (local.get $at))) (local.get $sum))))
        (f32.store offset=4 (local.get $at) (f32.demote_f64 (f64.add (f64.promote_f32 (f32.load offset=4 (local.get $at))) (local.get $n))))
        (local.set $at (i32.add (local.get $at) (i32.const 8)))
        (local.set $x0 (i32.add (local.get $x0) (local.get $factor)))
        (br $eachCell)))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br $eachRow)))
  )

  ;; The blurred map at every pixel of a $width x $height box, as float32 at $out: the two float32
  ;; channels of the cells at $cells (the map's sum and the mask's share, $cellsAcross a row)
  ;; interpolated bilinearly in float64, side by side in one pair, by the tables of `between` as
  ;; for `interpolate`, then the first over the second (0 where the second is at most 1e-6).
  (func (export "interpolateMap") (param $cells i32) (param $cellsAcross i32) (param $width i32) (param $height i32) (param $out i32)
    (param $left i32) (param $right i32) (param $across i32) (param $above i32) (param $below i32) (param $down i32)
    (local $x i32) (local $y i32) (local $fx v128) (local $fy v128) (local $top i32) (local $bottom i32) (local $k i32)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32) (local $va v128) (local $vc v128) (local $upper v128) (local $lower v128)
    (local $pair v128) (local $weight f64) (local $target i32)
    (local.set $target (local.get $out))
    (block $rowsDone (loop $eachRow
      (br_if $rowsDone (i32.ge_s (local.get $y) (local.get $height)))
      (local.set $fy (f64x2.splat (f64.load (i32.add (local.get $down) (i32.shl (local.get $y) (i32.const 3))))))
      (local.set $top (i32.add (local.get $cells)
        (i32.shl (i32.mul (i32.load (i32.add (local.get $above) (i32.shl (local.get $y) (i32.const 2)))) (local.get $cellsAcross)) (i32.const 3))))
      (local.set $bottom (i32.add (local.get $cells)
        (i32.shl (i32.mul (i32.load (i32.add (local.get $below) (i32.shl (local.get $y) (i32.const 2)))) (local.get $cellsAcross)) (i32.const 3))))
      (local.set $x (i32.const 0))
      (block $pixelsDone (loop $eachPixel
        (br_if $pixelsDone (i32.ge_s (local.get $x) (local.get $width)))
        (local.set $fx (f64x2.splat (f64.load (i32.add (local.get $across) (i32.shl (local.get $x) (i32.const 3))))))
        (local.set $k (i32.shl (i32.load (i32.add (local.get $left) (i32.shl (local.get $x) (i32.const 2)))) (i32.const 3)))
        (local.set $a (i32.add (local.get $top) (local.get $k)))
        (local.set $c (i32.add (local.get $bottom) (local.get $k)))
        (local.set $k (i32.shl (i32.load (i32.add (local.get $right) (i32.shl (local.get $x) (i32.const 2)))) (i32.const 3)))
        (local.set $b (i32.add (local.get $top) (local.get $k)))
        (local.set $d (i32.add (local.get $bottom) (local.get $k)))
        (local.set $va (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $a))))
        (local.set $upper (f64x2.add (local.get $va) (f64x2.mul (local.get $fx)
          (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $b))) (local.get $va)))))
        (local.set $vc (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $c))))
        (local.set $lower (f64x2.add (local.get $vc) (f64x2.mul (local.get $fx)
          (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $d))) (local.get $vc)))))
        (local.set $pair (f64x2.add (local.get $upper) (f64x2.mul (local.get $fy) (f64x2.sub (local.get $lower) (local.get $upper)))))
        (local.set $weight (f64x2.extract_lane 1 (local.get $pair)))
        (f32.store (local.get $target) (select
          (f32.demote_f64 (f64.div (f64x2.extract_lane 0 (local.get $pair)) (local.get $weight)))
          (f32.const 0)
          (f64.gt (local.get $weight) (f64.const 1e-6))))
        (local.set $target (i32.add (local.get $target) (i32.const 4)))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $eachPixel)))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br $eachRow)))
  )
)

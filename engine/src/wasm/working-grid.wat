;; The working grid's two resamplings (working-grid.ts): a box's pixels averaged into the grid's
;; cells, and the cells' values interpolated back over the box's pixels. Each does the arithmetic
;; the JavaScript did, in its order and its precision (cell sums in float32, one pixel after
;; another; the interpolation in float64, rounded to float32 once), so the output is exactly the
;; same, without V8's bounds check on every read.
;;
;; Built into working-grid.wasm by `pnpm --filter @doppel/engine build:wasm`; a test checks the
;; two agree.
(module
  (memory (export "memory") 1)

  ;; Per cell of a $gridWidth x $gridHeight grid of $factor x $factor pixel cells, the mean of the
  ;; float32 values at $values ($width x $height pixels of $channels interleaved) in it, written as
  ;; float32 at $sums (edge cells hold fewer pixels). A cell's running sum is kept in a register
  ;; across its pixels of a row: the same float32 additions, in the same order, as adding each
  ;; pixel into the stored sum.
  (func (export "shrink") (param $values i32) (param $sums i32) (param $channels i32) (param $width i32) (param $height i32)
    (param $factor i32) (param $gridWidth i32) (param $gridHeight i32)
    (local $y i32) (local $cx i32) (local $cy i32) (local $k i32) (local $x i32) (local $last i32) (local $at i32) (local $in i32)
    (local $stride i32) (local $sum f32) (local $count f32) (local $rows i32) (local $cell i32)
    (memory.fill (local.get $sums) (i32.const 0)
      (i32.shl (i32.mul (i32.mul (local.get $gridWidth) (local.get $gridHeight)) (local.get $channels)) (i32.const 2)))
    (local.set $stride (i32.shl (local.get $channels) (i32.const 2)))
    (block $rowsDone (loop $eachRow
      (br_if $rowsDone (i32.ge_s (local.get $y) (local.get $height)))
      (local.set $cx (i32.const 0))
      (block $cellsDone (loop $eachCell
        (br_if $cellsDone (i32.ge_s (local.get $cx) (local.get $gridWidth)))
        (local.set $last (i32.mul (i32.add (local.get $cx) (i32.const 1)) (local.get $factor)))
        (local.set $last (select (local.get $width) (local.get $last) (i32.gt_s (local.get $last) (local.get $width))))
        (local.set $k (i32.const 0))
        (block $channelsDone (loop $eachChannel
          (br_if $channelsDone (i32.ge_s (local.get $k) (local.get $channels)))
          (local.set $at (i32.add (local.get $sums) (i32.shl (i32.add (i32.mul (i32.add (i32.mul (i32.div_u (local.get $y) (local.get $factor))
            (local.get $gridWidth)) (local.get $cx)) (local.get $channels)) (local.get $k)) (i32.const 2))))
          (local.set $sum (f32.load (local.get $at)))
          (local.set $x (i32.mul (local.get $cx) (local.get $factor)))
          (local.set $in (i32.add (local.get $values) (i32.shl (i32.add (i32.mul (i32.add (i32.mul (local.get $y) (local.get $width)) (local.get $x))
            (local.get $channels)) (local.get $k)) (i32.const 2))))
          (block $pixelsDone (loop $eachPixel
            (br_if $pixelsDone (i32.ge_s (local.get $x) (local.get $last)))
            (local.set $sum (f32.add (local.get $sum) (f32.load (local.get $in))))
            (local.set $in (i32.add (local.get $in) (local.get $stride)))
            (local.set $x (i32.add (local.get $x) (i32.const 1)))
            (br $eachPixel)))
          (f32.store (local.get $at) (local.get $sum))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $eachChannel)))
        (local.set $cx (i32.add (local.get $cx) (i32.const 1)))
        (br $eachCell)))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br $eachRow)))
    ;; Sums to means: a float32 division, as float64's then rounded to float32 gives.
    (local.set $at (local.get $sums))
    (block $rowsDone (loop $eachRow
      (br_if $rowsDone (i32.ge_s (local.get $cy) (local.get $gridHeight)))
      (local.set $rows (i32.sub (local.get $height) (i32.mul (local.get $cy) (local.get $factor))))
      (local.set $rows (select (local.get $factor) (local.get $rows) (i32.gt_s (local.get $rows) (local.get $factor))))
      (local.set $cx (i32.const 0))
      (block $cellsDone (loop $eachCell
        (br_if $cellsDone (i32.ge_s (local.get $cx) (local.get $gridWidth)))
        (local.set $cell (i32.sub (local.get $width) (i32.mul (local.get $cx) (local.get $factor))))
        (local.set $cell (select (local.get $factor) (local.get $cell) (i32.gt_s (local.get $cell) (local.get $factor))))
        (local.set $count (f32.convert_i32_s (i32.mul (local.get $rows) (local.get $cell))))
        (local.set $k (i32.const 0))
        (block $channelsDone (loop $eachChannel
          (br_if $channelsDone (i32.ge_s (local.get $k) (local.get $channels)))
          (f32.store (local.get $at) (f32.div (f32.load (local.get $at)) (local.get $count)))
          (local.set $at (i32.add (local.get $at) (i32.const 4)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $eachChannel)))
        (local.set $cx (i32.add (local.get $cx) (i32.const 1)))
        (br $eachCell)))
      (local.set $cy (i32.add (local.get $cy) (i32.const 1)))
      (br $eachRow)))
  )

  ;; The float32 grid at $coarse ($gridWidth cells across, $channels interleaved) at every pixel of
  ;; a $width x $height box, as float32 at $out: bilinear between the cells' centres, by the
  ;; tables of `between` (working-grid.ts) across ($acrossBefore, $acrossAfter as int32,
  ;; $acrossShare as float64) and down ($down*). With $defined (a byte per cell; 0: no mask, every
  ;; cell defined) only defined cells count, their weights normalised, and a pixel with none
  ;; near is 0. With $add, each value (as float32) is added to the float32 already at $out instead.
  ;; Each pixel row is first interpolated down over the cells, into the float64 row at $row and
  ;; its weights at $rowWeight.
  (func (export "enlarge") (param $coarse i32) (param $defined i32) (param $out i32) (param $channels i32) (param $gridWidth i32)
    (param $width i32) (param $height i32) (param $acrossBefore i32) (param $acrossAfter i32) (param $acrossShare i32)
    (param $downBefore i32) (param $downAfter i32) (param $downShare i32) (param $row i32) (param $rowWeight i32) (param $add i32)
    (local $y i32) (local $x i32) (local $k i32) (local $cell i32) (local $top i32) (local $bottom i32) (local $ty f64)
    (local $wt f64) (local $wb f64) (local $a i32) (local $b i32) (local $tx f64) (local $wa f64) (local $total f64)
    (local $at i32) (local $ra i32) (local $rb i32) (local $stride i32) (local $weights v128) (local $value f32)
    (local.set $stride (i32.shl (local.get $channels) (i32.const 3)))
    (block $rowsDone (loop $eachRow
      (br_if $rowsDone (i32.ge_s (local.get $y) (local.get $height)))
      (local.set $top (i32.mul (i32.load (i32.add (local.get $downBefore) (i32.shl (local.get $y) (i32.const 2)))) (local.get $gridWidth)))
      (local.set $bottom (i32.mul (i32.load (i32.add (local.get $downAfter) (i32.shl (local.get $y) (i32.const 2)))) (local.get $gridWidth)))
      (local.set $ty (f64.load (i32.add (local.get $downShare) (i32.shl (local.get $y) (i32.const 3)))))
      (local.set $cell (i32.const 0))
      (block $cellsDone (loop $eachCell
        (br_if $cellsDone (i32.ge_s (local.get $cell) (local.get $gridWidth)))
        (local.set $wt (f64.sub (f64.const 1) (local.get $ty)))
        (local.set $wb (local.get $ty))
        (if (local.get $defined) (then
          (local.set $wt (f64.mul (local.get $wt)
            (f64.convert_i32_u (i32.load8_u (i32.add (local.get $defined) (i32.add (local.get $top) (local.get $cell)))))))
          (local.set $wb (f64.mul (local.get $wb)
            (f64.convert_i32_u (i32.load8_u (i32.add (local.get $defined) (i32.add (local.get $bottom) (local.get $cell)))))))))
        (f64.store (i32.add (local.get $rowWeight) (i32.shl (local.get $cell) (i32.const 3))) (f64.add (local.get $wt) (local.get $wb)))
        (local.set $k (i32.const 0))
        (block $channelsDone (loop $eachChannel
          (br_if $channelsDone (i32.ge_s (local.get $k) (local.get $channels)))
          (f64.store (i32.add (local.get $row) (i32.shl (i32.add (i32.mul (local.get $cell) (local.get $channels)) (local.get $k)) (i32.const 3)))
            (f64.add
              (f64.mul (local.get $wt) (f64.promote_f32 (f32.load (i32.add (local.get $coarse)
                (i32.shl (i32.add (i32.mul (i32.add (local.get $top) (local.get $cell)) (local.get $channels)) (local.get $k)) (i32.const 2))))))
              (f64.mul (local.get $wb) (f64.promote_f32 (f32.load (i32.add (local.get $coarse)
                (i32.shl (i32.add (i32.mul (i32.add (local.get $bottom) (local.get $cell)) (local.get $channels)) (local.get $k)) (i32.const 2))))))))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $eachChannel)))
        (local.set $cell (i32.add (local.get $cell) (i32.const 1)))
        (br $eachCell)))
      (local.set $x (i32.const 0))
      (block $pixelsDone (loop $eachPixel
        (br_if $pixelsDone (i32.ge_s (local.get $x) (local.get $width)))
        (local.set $tx (f64.load (i32.add (local.get $acrossShare) (i32.shl (local.get $x) (i32.const 3)))))
        (local.set $a (i32.load (i32.add (local.get $acrossBefore) (i32.shl (local.get $x) (i32.const 2)))))
        (local.set $b (i32.load (i32.add (local.get $acrossAfter) (i32.shl (local.get $x) (i32.const 2)))))
        (local.set $wa (f64.sub (f64.const 1) (local.get $tx)))
        (local.set $wb (local.get $tx))
        (local.set $total (f64.const 1))
        (if (local.get $defined) (then
          (local.set $total (f64.add
            (f64.mul (local.get $wa) (f64.load (i32.add (local.get $rowWeight) (i32.shl (local.get $a) (i32.const 3)))))
            (f64.mul (local.get $wb) (f64.load (i32.add (local.get $rowWeight) (i32.shl (local.get $b) (i32.const 3)))))))
          ;; Both weights divided in one instruction.
          (local.set $weights (f64x2.div (f64x2.replace_lane 1 (f64x2.splat (local.get $wa)) (local.get $wb)) (f64x2.splat (local.get $total))))
          (local.set $wa (f64x2.extract_lane 0 (local.get $weights)))
          (local.set $wb (f64x2.extract_lane 1 (local.get $weights)))))
        (local.set $at (i32.add (local.get $out) (i32.shl (i32.mul (i32.add (i32.mul (local.get $y) (local.get $width)) (local.get $x)) (local.get $channels)) (i32.const 2))))
        (local.set $ra (i32.add (local.get $row) (i32.mul (local.get $a) (local.get $stride))))
        (local.set $rb (i32.add (local.get $row) (i32.mul (local.get $b) (local.get $stride))))
        (local.set $k (i32.const 0))
        (block $channelsDone (loop $eachChannel
          (br_if $channelsDone (i32.ge_s (local.get $k) (local.get $channels)))
          ;; Where no defined cell is near, 0 (the weights are not used).
          (local.set $value (select (f32.const 0)
            (f32.demote_f64 (f64.add (f64.mul (local.get $wa) (f64.load (local.get $ra))) (f64.mul (local.get $wb) (f64.load (local.get $rb)))))
            (f64.lt (local.get $total) (f64.const 1e-6))))
          (if (local.get $add) (then (local.set $value (f32.add (f32.load (local.get $at)) (local.get $value)))))
          (f32.store (local.get $at) (local.get $value))
          (local.set $at (i32.add (local.get $at) (i32.const 4)))
          (local.set $ra (i32.add (local.get $ra) (i32.const 8)))
          (local.set $rb (i32.add (local.get $rb) (i32.const 8)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $eachChannel)))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $eachPixel)))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br $eachRow)))
  )
)

;; A video frame's RGB as the planes of 4:2:0 YUV (BT.601, limited range), what the encoder takes
;; (write-frames.ts): given RGB, ffmpeg's own conversion (plain C for RGB24) cost the encoder's
;; process about 4 ms of CPU for each 1280x720 frame, a third of its encoding. Luma is ffmpeg's
;; own value, to the bit (its fixed-point weights and rounding); each chroma sample is the mean of
;; its 2x2 block, where ffmpeg's bicubic filter gives a photo's frames values up to 2 levels
;; apart (and sharper at hard colour edges); both in 32-bit integers. Eight columns of two rows
;; at a time in SIMD lanes (about 1.1 ms a 720p frame), the columns left one block at a time.
;;
;; Built into rgb-to-yuv.wasm by `pnpm --filter @doppel/engine build:wasm`; a test checks the
;; two agree.
(module
  (memory (export "memory") 1)

  ;; Luma of one pixel: ffmpeg's weights 8414, 16519 and 3208 in 2^15, with its offset and
  ;; rounding (its two shifts, by 9 and then 6 after adding 32, are one shift by 15).
  (func $luma (param $r i32) (param $g i32) (param $b i32) (result i32)
    (i32.shr_s
      (i32.add (i32.add (i32.add (i32.mul (local.get $r) (i32.const 8414)) (i32.mul (local.get $g) (i32.const 16519)))
        (i32.mul (local.get $b) (i32.const 3208))) (i32.const 540928))
      (i32.const 15)))

  ;; Chroma of a 2x2 block from its channel sums: weights in 2^15 summing to 0 (grey is 128
  ;; exactly), the sum divided by 4 * 2^15 with rounding.
  (func $chroma (param $r4 i32) (param $g4 i32) (param $b4 i32) (param $wr i32) (param $wg i32) (param $wb i32) (result i32)
    (i32.shr_s
      (i32.add (i32.add (i32.add (i32.mul (local.get $r4) (local.get $wr)) (i32.mul (local.get $g4) (local.get $wg)))
        (i32.mul (local.get $b4) (local.get $wb))) (i32.const 16842752))
      (i32.const 17)))

  ;; The $width x $height RGB frame at $rgb (both even) as planes: Y at $y, U at $u, V at $v.
  (func (export "convert") (param $rgb i32) (param $width i32) (param $height i32) (param $y i32) (param $u i32) (param $v i32)
    (local $row i32) (local $column i32) (local $top i32) (local $bottom i32) (local $upper i32) (local $lower i32)
    (local $r0 i32) (local $g0 i32) (local $b0 i32) (local $r1 i32) (local $g1 i32) (local $b1 i32)
    (local $r2 i32) (local $g2 i32) (local $b2 i32) (local $r3 i32) (local $g3 i32) (local $b3 i32)
    (local $r4 i32) (local $g4 i32) (local $b4 i32) (local $rowBytes i32)
    (local $rt v128) (local $gt v128) (local $bt v128) (local $rb v128) (local $gb v128) (local $bb v128)
    (local $rs v128) (local $gs v128) (local $bs v128) (local $lo v128) (local $hi v128) (local $topLow v128) (local $topHigh v128) (local $bottomLow v128) (local $bottomHigh v128)
    (local $rgWeights v128) (local $bWeights v128) (local $yBias v128) (local $cBias v128)
    (local $ur v128) (local $ug v128) (local $ub v128) (local $vr v128) (local $vg v128) (local $vb v128)
    (local.set $rowBytes (i32.mul (local.get $width) (i32.const 3)))
    ;; The weights and roundings of $luma and $chroma, in lanes: red and green weights alternate
    ;; for the dot product of interleaved red and green, chroma weights are i16 (a block's sum
    ;; fits in 16 bits, and the dot product adds its two columns).
    (local.set $rgWeights (i16x8.replace_lane 7 (i16x8.replace_lane 5 (i16x8.replace_lane 3 (i16x8.replace_lane 1
      (i16x8.splat (i32.const 8414)) (i32.const 16519)) (i32.const 16519)) (i32.const 16519)) (i32.const 16519)))
    (local.set $bWeights (i16x8.splat (i32.const 3208)))
    (local.set $yBias (i32x4.splat (i32.const 540928)))
    (local.set $cBias (i32x4.splat (i32.const 16842752)))
    (local.set $ur (i16x8.splat (i32.const -4857)))
    (local.set $ug (i16x8.splat (i32.const -9535)))
    (local.set $ub (i16x8.splat (i32.const 14392)))
    (local.set $vr (i16x8.splat (i32.const 14392)))
    (local.set $vg (i16x8.splat (i32.const -12052)))
    (local.set $vb (i16x8.splat (i32.const -2340)))
    (block $rowsDone (loop $eachRowPair
      (br_if $rowsDone (i32.ge_s (local.get $row) (local.get $height)))
      (local.set $top (i32.add (local.get $rgb) (i32.mul (local.get $row) (local.get $rowBytes))))
      (local.set $bottom (i32.add (local.get $top) (local.get $rowBytes)))
      (local.set $upper (i32.add (local.get $y) (i32.mul (local.get $row) (local.get $width))))
      (local.set $lower (i32.add (local.get $upper) (local.get $width)))
      (local.set $column (i32.const 0))
      ;; Eight columns at a time while eight are left, in SIMD lanes; the rest a block at a time.
      (block $wideDone (loop $eachWide
        (br_if $wideDone (i32.gt_s (i32.add (local.get $column) (i32.const 8)) (local.get $width)))
        (local.set $topLow (v128.load (local.get $top)))
        (local.set $topHigh (v128.load offset=16 (local.get $top)))
        (local.set $bottomLow (v128.load (local.get $bottom)))
        (local.set $bottomHigh (v128.load offset=16 (local.get $bottom)))
        (local.set $rt (i16x8.extend_low_i8x16_u (i8x16.shuffle 0 3 6 9 12 15 18 21 0 0 0 0 0 0 0 0 (local.get $topLow) (local.get $topHigh))))
        (local.set $gt (i16x8.extend_low_i8x16_u (i8x16.shuffle 1 4 7 10 13 16 19 22 0 0 0 0 0 0 0 0 (local.get $topLow) (local.get $topHigh))))
        (local.set $bt (i16x8.extend_low_i8x16_u (i8x16.shuffle 2 5 8 11 14 17 20 23 0 0 0 0 0 0 0 0 (local.get $topLow) (local.get $topHigh))))
        (local.set $rb (i16x8.extend_low_i8x16_u (i8x16.shuffle 0 3 6 9 12 15 18 21 0 0 0 0 0 0 0 0 (local.get $bottomLow) (local.get $bottomHigh))))
        (local.set $gb (i16x8.extend_low_i8x16_u (i8x16.shuffle 1 4 7 10 13 16 19 22 0 0 0 0 0 0 0 0 (local.get $bottomLow) (local.get $bottomHigh))))
        (local.set $bb (i16x8.extend_low_i8x16_u (i8x16.shuffle 2 5 8 11 14 17 20 23 0 0 0 0 0 0 0 0 (local.get $bottomLow) (local.get $bottomHigh))))
        (local.set $lo (i32x4.shr_s (i32x4.add (i32x4.add (i32x4.dot_i16x8_s (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $rt) (local.get $gt)) (local.get $rgWeights))
          (i32x4.extmul_low_i16x8_u (local.get $bt) (local.get $bWeights))) (local.get $yBias)) (i32.const 15)))
        (local.set $hi (i32x4.shr_s (i32x4.add (i32x4.add (i32x4.dot_i16x8_s (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $rt) (local.get $gt)) (local.get $rgWeights))
          (i32x4.extmul_high_i16x8_u (local.get $bt) (local.get $bWeights))) (local.get $yBias)) (i32.const 15)))
        (v128.store64_lane 0 (local.get $upper)
          (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_s (local.get $lo) (local.get $hi)) (i16x8.narrow_i32x4_s (local.get $lo) (local.get $hi))))
        (local.set $lo (i32x4.shr_s (i32x4.add (i32x4.add (i32x4.dot_i16x8_s (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $rb) (local.get $gb)) (local.get $rgWeights))
          (i32x4.extmul_low_i16x8_u (local.get $bb) (local.get $bWeights))) (local.get $yBias)) (i32.const 15)))
        (local.set $hi (i32x4.shr_s (i32x4.add (i32x4.add (i32x4.dot_i16x8_s (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $rb) (local.get $gb)) (local.get $rgWeights))
          (i32x4.extmul_high_i16x8_u (local.get $bb) (local.get $bWeights))) (local.get $yBias)) (i32.const 15)))
        (v128.store64_lane 0 (local.get $lower)
          (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_s (local.get $lo) (local.get $hi)) (i16x8.narrow_i32x4_s (local.get $lo) (local.get $hi))))
        ;; Each block's sums: the two rows added, and each pair of columns by the dot products.
        (local.set $rs (i16x8.add (local.get $rt) (local.get $rb)))
        (local.set $gs (i16x8.add (local.get $gt) (local.get $gb)))
        (local.set $bs (i16x8.add (local.get $bt) (local.get $bb)))
        (local.set $lo (i32x4.shr_s (i32x4.add (i32x4.add (i32x4.add (i32x4.dot_i16x8_s (local.get $rs) (local.get $ur))
          (i32x4.dot_i16x8_s (local.get $gs) (local.get $ug))) (i32x4.dot_i16x8_s (local.get $bs) (local.get $ub))) (local.get $cBias)) (i32.const 17)))
        (v128.store32_lane 0 (local.get $u)
          (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_s (local.get $lo) (local.get $lo)) (i16x8.narrow_i32x4_s (local.get $lo) (local.get $lo))))
        (local.set $lo (i32x4.shr_s (i32x4.add (i32x4.add (i32x4.add (i32x4.dot_i16x8_s (local.get $rs) (local.get $vr))
          (i32x4.dot_i16x8_s (local.get $gs) (local.get $vg))) (i32x4.dot_i16x8_s (local.get $bs) (local.get $vb))) (local.get $cBias)) (i32.const 17)))
        (v128.store32_lane 0 (local.get $v)
          (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_s (local.get $lo) (local.get $lo)) (i16x8.narrow_i32x4_s (local.get $lo) (local.get $lo))))
        (local.set $top (i32.add (local.get $top) (i32.const 24)))
        (local.set $bottom (i32.add (local.get $bottom) (i32.const 24)))
        (local.set $upper (i32.add (local.get $upper) (i32.const 8)))
        (local.set $lower (i32.add (local.get $lower) (i32.const 8)))
        (local.set $u (i32.add (local.get $u) (i32.const 4)))
        (local.set $v (i32.add (local.get $v) (i32.const 4)))
        (local.set $column (i32.add (local.get $column) (i32.const 8)))
        (br $eachWide)))
      (block $blocksDone (loop $eachBlock
        (br_if $blocksDone (i32.ge_s (local.get $column) (local.get $width)))
        (local.set $r0 (i32.load8_u (local.get $top)))
        (local.set $g0 (i32.load8_u offset=1 (local.get $top)))
        (local.set $b0 (i32.load8_u offset=2 (local.get $top)))
        (local.set $r1 (i32.load8_u offset=3 (local.get $top)))
        (local.set $g1 (i32.load8_u offset=4 (local.get $top)))
        (local.set $b1 (i32.load8_u offset=5 (local.get $top)))
        (local.set $r2 (i32.load8_u (local.get $bottom)))
        (local.set $g2 (i32.load8_u offset=1 (local.get $bottom)))
        (local.set $b2 (i32.load8_u offset=2 (local.get $bottom)))
        (local.set $r3 (i32.load8_u offset=3 (local.get $bottom)))
        (local.set $g3 (i32.load8_u offset=4 (local.get $bottom)))
        (local.set $b3 (i32.load8_u offset=5 (local.get $bottom)))
        (i32.store8 (local.get $upper) (call $luma (local.get $r0) (local.get $g0) (local.get $b0)))
        (i32.store8 offset=1 (local.get $upper) (call $luma (local.get $r1) (local.get $g1) (local.get $b1)))
        (i32.store8 (local.get $lower) (call $luma (local.get $r2) (local.get $g2) (local.get $b2)))
        (i32.store8 offset=1 (local.get $lower) (call $luma (local.get $r3) (local.get $g3) (local.get $b3)))
        (local.set $r4 (i32.add (i32.add (local.get $r0) (local.get $r1)) (i32.add (local.get $r2) (local.get $r3))))
        (local.set $g4 (i32.add (i32.add (local.get $g0) (local.get $g1)) (i32.add (local.get $g2) (local.get $g3))))
        (local.set $b4 (i32.add (i32.add (local.get $b0) (local.get $b1)) (i32.add (local.get $b2) (local.get $b3))))
        (i32.store8 (local.get $u) (call $chroma (local.get $r4) (local.get $g4) (local.get $b4) (i32.const -4857) (i32.const -9535) (i32.const 14392)))
        (i32.store8 (local.get $v) (call $chroma (local.get $r4) (local.get $g4) (local.get $b4) (i32.const 14392) (i32.const -12052) (i32.const -2340)))
        (local.set $top (i32.add (local.get $top) (i32.const 6)))
        (local.set $bottom (i32.add (local.get $bottom) (i32.const 6)))
        (local.set $upper (i32.add (local.get $upper) (i32.const 2)))
        (local.set $lower (i32.add (local.get $lower) (i32.const 2)))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (local.set $v (i32.add (local.get $v) (i32.const 1)))
        (local.set $column (i32.add (local.get $column) (i32.const 2)))
        (br $eachBlock)))
      (local.set $row (i32.add (local.get $row) (i32.const 2)))
      (br $eachRowPair)))
  )
)

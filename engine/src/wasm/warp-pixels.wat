;; The per-pixel loop of the face warp (warp-face.ts): each pixel of the target box that a mesh
;; triangle covers is sampled from both views of the source at the same barycentric position, and
;; how far the secondary view takes the pixel over is worked out from both views' sharpness and
;; skin. The same arithmetic in the same order as the JavaScript loop it replaced, in float64, so
;; the output is exactly what that loop gave, about twice as fast (a 195x221 box: 3.3 ms against
;; 8.2, on a slow machine); a sample's x and y are worked out side by side in a float64 pair.
;; `warpPixels` (warp-pixels.ts) describes the inputs and outputs.
;;
;; Built into warp-pixels.wasm by `pnpm --filter @doppel/engine build:wasm`; a test checks the two
;; agree.
(module
  (memory (export "memory") 1)
  ;; Set by $warp to 1 when any covered pixel came out less than fully sharp.
  (global $stretched (export "stretched") (mut i32) (i32.const 0))

  ;; Float32 per mesh point at $values, at barycentric ($u, $v) of the triangle whose points are
  ;; $a, $b, $c, kept within 0..1.
  (func $interpolated (param $values i32) (param $a i32) (param $b i32) (param $c i32) (param $u f64) (param $v f64) (result f64)
    (local $first f64)
    (local.set $first (f64.promote_f32 (f32.load (i32.add (local.get $values) (i32.shl (local.get $a) (i32.const 2))))))
    (f64.min (f64.const 1) (f64.max (f64.const 0)
      (f64.add (f64.add (local.get $first)
        (f64.mul (local.get $u) (f64.sub (f64.promote_f32 (f32.load (i32.add (local.get $values) (i32.shl (local.get $b) (i32.const 2))))) (local.get $first))))
        (f64.mul (local.get $v) (f64.sub (f64.promote_f32 (f32.load (i32.add (local.get $values) (i32.shl (local.get $c) (i32.const 2))))) (local.get $first)))))))

  ;; Samples a view of the source (float32 x, y per mesh point at $mesh; RGB bytes at $rgb;
  ;; likeness bytes at $likeness; $width x $height) bilinearly at barycentric ($u, $v) of the
  ;; triangle $a, $b, $c, clamped to the photo, into three float32 at $out. Returns the likeness
  ;; there, 0..1, and 0 beyond the photo's edge (a mesh point there has no pixels of its own).
  (func $sample (param $mesh i32) (param $rgb i32) (param $likeness i32) (param $width i32) (param $height i32)
      (param $a i32) (param $b i32) (param $c i32) (param $u f64) (param $v f64) (param $out i32) (result f64)
    (local $first v128) (local $at v128) (local $size v128) (local $clamped v128) (local $whole v128) (local $f v128) (local $cell v128)
    (local $fx f64) (local $fy f64) (local $i00 i32) (local $i01 i32) (local $top f64) (local $s00 f64) (local $s01 f64)
    (local.set $first (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $mesh) (i32.shl (local.get $a) (i32.const 3))))))
    (local.set $at (f64x2.add (f64x2.add (local.get $first)
      (f64x2.mul (f64x2.splat (local.get $u)) (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $mesh) (i32.shl (local.get $b) (i32.const 3))))) (local.get $first))))
      (f64x2.mul (f64x2.splat (local.get $v)) (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $mesh) (i32.shl (local.get $c) (i32.const 3))))) (local.get $first)))))
    (local.set $size (f64x2.replace_lane 1 (f64x2.splat (f64.convert_i32_s (local.get $width))) (f64.convert_i32_s (local.get $height))))
    ;; Bilinear, the sample point kept a thousandth of a pixel inside the last row and column.
    ;; pmax and pmin differ from max and min only on NaN and on -0, neither of which changes the sample.
    (local.set $clamped (f64x2.pmin (f64x2.pmax (local.get $at) (v128.const f64x2 0 0)) (f64x2.sub (local.get $size) (v128.const f64x2 1.001 1.001))))
    (local.set $whole (f64x2.floor (local.get $clamped)))
    (local.set $f (f64x2.sub (local.get $clamped) (local.get $whole)))
    (local.set $fx (f64x2.extract_lane 0 (local.get $f)))
    (local.set $fy (f64x2.extract_lane 1 (local.get $f)))
    (local.set $cell (i32x4.trunc_sat_f64x2_s_zero (local.get $whole)))
    (local.set $i00 (i32.add (local.get $rgb) (i32.mul (i32.add
      (i32.mul (i32x4.extract_lane 1 (local.get $cell)) (local.get $width)) (i32x4.extract_lane 0 (local.get $cell))) (i32.const 3))))
    (local.set $i01 (i32.add (local.get $i00) (i32.mul (local.get $width) (i32.const 3))))
    (local.set $s00 (f64.convert_i32_u (i32.load8_u offset=0 (local.get $i00))))
    (local.set $s01 (f64.convert_i32_u (i32.load8_u offset=0 (local.get $i01))))
    (local.set $top (f64.add (local.get $s00) (f64.mul (f64.sub (f64.convert_i32_u (i32.load8_u offset=3 (local.get $i00))) (local.get $s00)) (local.get $fx))))
    (f32.store offset=0 (local.get $out) (f32.demote_f64 (f64.add (local.get $top) (f64.mul (f64.sub
      (f64.add (local.get $s01) (f64.mul (f64.sub (f64.convert_i32_u (i32.load8_u offset=3 (local.get $i01))) (local.get $s01)) (local.get $fx)))
      (local.get $top)) (local.get $fy)))))
    (local.set $s00 (f64.convert_i32_u (i32.load8_u offset=1 (local.get $i00))))
    (local.set $s01 (f64.convert_i32_u (i32.load8_u offset=1 (local.get $i01))))
    (local.set $top (f64.add (local.get $s00) (f64.mul (f64.sub (f64.convert_i32_u (i32.load8_u offset=4 (local.get $i00))) (local.get $s00)) (local.get $fx))))
    (f32.store offset=4 (local.get $out) (f32.demote_f64 (f64.add (local.get $top) (f64.mul (f64.sub
      (f64.add (local.get $s01) (f64.mul (f64.sub (f64.convert_i32_u (i32.load8_u offset=4 (local.get $i01))) (local.get $s01)) (local.get $fx)))
      (local.get $top)) (local.get $fy)))))
    (local.set $s00 (f64.convert_i32_u (i32.load8_u offset=2 (local.get $i00))))
    (local.set $s01 (f64.convert_i32_u (i32.load8_u offset=2 (local.get $i01))))
    (local.set $top (f64.add (local.get $s00) (f64.mul (f64.sub (f64.convert_i32_u (i32.load8_u offset=5 (local.get $i00))) (local.get $s00)) (local.get $fx))))
    (f32.store offset=8 (local.get $out) (f32.demote_f64 (f64.add (local.get $top) (f64.mul (f64.sub
      (f64.add (local.get $s01) (f64.mul (f64.sub (f64.convert_i32_u (i32.load8_u offset=5 (local.get $i01))) (local.get $s01)) (local.get $fx)))
      (local.get $top)) (local.get $fy)))))
    (if (v128.any_true (v128.or (f64x2.lt (local.get $at) (v128.const f64x2 -0.5 -0.5))
        (f64x2.gt (local.get $at) (f64x2.sub (local.get $size) (v128.const f64x2 0.5 0.5)))))
      (then (return (f64.const 0))))
    ;; The likeness of the nearest pixel (Math.round: halves towards +infinity, where f64x2.nearest rounds them to even).
    (local.set $whole (f64x2.floor (local.get $at)))
    (local.set $whole (f64x2.add (local.get $whole) (v128.and (f64x2.ge (f64x2.sub (local.get $at) (local.get $whole)) (v128.const f64x2 0.5 0.5)) (v128.const f64x2 1 1))))
    (local.set $cell (i32x4.trunc_sat_f64x2_s_zero (f64x2.pmin (f64x2.pmax (local.get $whole) (v128.const f64x2 0 0)) (f64x2.sub (local.get $size) (v128.const f64x2 1 1)))))
    (f64.div (f64.convert_i32_u (i32.load8_u (i32.add (local.get $likeness)
      (i32.add (i32.mul (i32x4.extract_lane 1 (local.get $cell)) (local.get $width)) (i32x4.extract_lane 0 (local.get $cell))))))
      (f64.const 255)))

  ;; Warps the $width x $height box, pixel by pixel (see warpPixels in warp-pixels.ts for what each
  ;; input and output holds). Outputs are written only on covered pixels: the caller zeroes them.
  ;; Returns how many pixels the secondary view mixes into, listed at $mixed.
  (func (export "warp")
      (param $map i32) (param $weights i32) (param $triangles i32) (param $width i32) (param $height i32)
      (param $bySharpness i32) (param $ownSharpness i32) (param $otherSharpness i32)
      (param $ownMesh i32) (param $ownRgb i32) (param $ownLikeness i32) (param $ownWidth i32) (param $ownHeight i32)
      (param $otherMesh i32) (param $otherRgb i32) (param $otherLikeness i32) (param $otherWidth i32) (param $otherHeight i32)
      (param $rgb i32) (param $secondRgb i32) (param $covered i32) (param $confidence i32) (param $sharpness i32)
      (param $mixes i32) (param $both i32) (param $mixed i32) (param $hairTakeover f64) (param $sureSkin f64) (result i32)
    (local $x i32) (local $y i32) (local $pixel i32) (local $triangle i32) (local $w i32) (local $dx f64) (local $dy f64)
    (local $u f64) (local $v f64) (local $a i32) (local $b i32) (local $c i32) (local $corners i32)
    (local $own f64) (local $skin f64) (local $sharp f64) (local $ownSharp f64) (local $otherSharp f64)
    (local $mix f64) (local $seen f64) (local $mixedCount i32) (local $drawn f32)
    (global.set $stretched (i32.const 0))
    (block $rows (loop $row
      (br_if $rows (i32.ge_s (local.get $y) (local.get $height)))
      (local.set $x (i32.const 0))
      (block $columns (loop $column
        (br_if $columns (i32.ge_s (local.get $x) (local.get $width)))
        (local.set $triangle (i32.load16_s (i32.add (local.get $map) (i32.shl (local.get $pixel) (i32.const 1)))))
        (if (i32.ge_s (local.get $triangle) (i32.const 0)) (then
          ;; The same barycentric weights on the source triangle give the sampling position.
          (local.set $w (i32.add (local.get $weights) (i32.mul (local.get $triangle) (i32.const 48))))
          (local.set $dx (f64.sub (f64.convert_i32_s (local.get $x)) (f64.load (local.get $w))))
          (local.set $dy (f64.sub (f64.convert_i32_s (local.get $y)) (f64.load offset=8 (local.get $w))))
          (local.set $u (f64.add (f64.mul (local.get $dx) (f64.load offset=16 (local.get $w))) (f64.mul (local.get $dy) (f64.load offset=24 (local.get $w)))))
          (local.set $v (f64.add (f64.mul (local.get $dx) (f64.load offset=32 (local.get $w))) (f64.mul (local.get $dy) (f64.load offset=40 (local.get $w)))))
          (local.set $corners (i32.add (local.get $triangles) (i32.mul (local.get $triangle) (i32.const 6))))
          (local.set $a (i32.load16_u (local.get $corners)))
          (local.set $b (i32.load16_u offset=2 (local.get $corners)))
          (local.set $c (i32.load16_u offset=4 (local.get $corners)))
          (local.set $own (call $sample (local.get $ownMesh) (local.get $ownRgb) (local.get $ownLikeness) (local.get $ownWidth) (local.get $ownHeight)
            (local.get $a) (local.get $b) (local.get $c) (local.get $u) (local.get $v) (i32.add (local.get $rgb) (i32.mul (local.get $pixel) (i32.const 12)))))
          (local.set $sharp (f64.promote_f32 (f32.load (i32.add (local.get $bySharpness) (i32.shl (local.get $triangle) (i32.const 2))))))
          (local.set $ownSharp (call $interpolated (local.get $ownSharpness) (local.get $a) (local.get $b) (local.get $c) (local.get $u) (local.get $v)))
          (local.set $otherSharp (call $interpolated (local.get $otherSharpness) (local.get $a) (local.get $b) (local.get $c) (local.get $u) (local.get $v)))
          (local.set $skin (call $sample (local.get $otherMesh) (local.get $otherRgb) (local.get $otherLikeness) (local.get $otherWidth) (local.get $otherHeight)
            (local.get $a) (local.get $b) (local.get $c) (local.get $u) (local.get $v) (i32.add (local.get $secondRgb) (i32.mul (local.get $pixel) (i32.const 12)))))
          (if (i32.and (f64.ge (local.get $own) (local.get $sureSkin)) (f64.ge (local.get $skin) (local.get $sureSkin)))
            (then (i32.store8 (i32.add (local.get $both) (local.get $pixel)) (i32.const 1))))
          ;; How far the secondary takes the pixel over, and how far what it shows there is skin: as
          ;; far as the secondary is sharper (taken over fully once it was any sharper, a slight
          ;; stretch let its unflagged hair in as hard-edged patches), or as the primary is not skin
          ;; (steeply, by $hairTakeover).
          (local.set $mix (f64.const 0))
          (local.set $seen (f64.const 0))
          (if (f64.gt (local.get $otherSharp) (local.get $ownSharp))
            (then
              (local.set $seen (local.get $skin))
              (local.set $mix (f64.mul (local.get $seen) (f64.max (f64.sub (local.get $otherSharp) (local.get $ownSharp))
                (f64.min (f64.const 1) (f64.mul (local.get $hairTakeover) (f64.sub (f64.const 1) (local.get $own))))))))
            (else (if (f64.lt (local.get $own) (f64.const 1))
              (then
                (local.set $seen (f64.mul (local.get $skin) (local.get $otherSharp)))
                (local.set $mix (f64.mul (f64.min (f64.const 1) (f64.mul (local.get $hairTakeover) (f64.sub (f64.const 1) (local.get $own)))) (local.get $seen)))))))
          (if (f64.gt (local.get $mix) (f64.const 0))
            (then
              (f32.store (i32.add (local.get $mixes) (i32.shl (local.get $pixel) (i32.const 2))) (f32.demote_f64 (local.get $mix)))
              (i32.store (i32.add (local.get $mixed) (i32.shl (local.get $mixedCount) (i32.const 2))) (local.get $pixel))
              (local.set $mixedCount (i32.add (local.get $mixedCount) (i32.const 1)))))
          (f32.store (i32.add (local.get $confidence) (i32.shl (local.get $pixel) (i32.const 2)))
            (f32.demote_f64 (f64.add (f64.mul (f64.sub (f64.const 1) (local.get $mix)) (local.get $own)) (f64.mul (local.get $mix) (local.get $seen)))))
          (i32.store8 (i32.add (local.get $covered) (local.get $pixel)) (i32.const 1))
          ;; Judged as stored, in float32.
          (local.set $drawn (f32.demote_f64 (f64.add (local.get $sharp) (f64.mul (local.get $mix) (f64.sub (local.get $otherSharp) (local.get $sharp))))))
          (f32.store (i32.add (local.get $sharpness) (i32.shl (local.get $pixel) (i32.const 2))) (local.get $drawn))
          (if (f32.lt (local.get $drawn) (f32.const 1)) (then (global.set $stretched (i32.const 1))))))
        (local.set $pixel (i32.add (local.get $pixel) (i32.const 1)))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $column)))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br $row)))
    (local.get $mixedCount))
)

#!/bin/sh
# The README's "A movie with ffmpeg" commands, run as written: ffmpeg
# reads heatsim's %f frames and libx264 takes their sizes.  Skipped (77)
# only where ffmpeg is absent; CI installs it.
. "${srcdir:-.}/tests/testlib.sh"
: "${PNG_PROBE:?PNG_PROBE must name tests/png_probe}"
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null \
  || { echo "ffmpeg or ffprobe not found"; exit 77; }
PATH=$(dirname "$HEATSIM"):$PATH
export PATH

# The indented lines of the subsection, up to the next heading.  The
# first film's frames are 95 x 3 = 285 pixels wide, padded to 286: an
# odd width would make libx264 fail.
sed -n '/^### A movie with ffmpeg$/,/^[#-]/p' "$srcdir/README" \
  | sed -n 's/^    //p' >commands
[ "$(grep -c '^heatsim ' commands)" -eq 2 ] \
  && [ "$(grep -c '^ffmpeg ' commands)" -eq 2 ] \
  || fail "README commands not found: $(cat commands)"
while IFS= read -r line; do
  sh -c "$line" </dev/null >"$workdir/out" 2>"$workdir/err" \
    || fail "'$line' failed: $(grep -v '^ ' "$workdir/err" | tail -n 5)"
  checks=$((checks + 1))
done <commands

# movie FILE FRAME: the film has as many frames as there are PNGs, and
# their size.
movie () {
  frames=$(ls movie/"$2"-*.png | wc -l)
  size=$("$PNG_PROBE" "movie/$2-000000.png" | sed -n '1s/ .*//p')
  w=${size%x*}
  h=${size#*x}
  [ "$3" = pad ] && w=$((w + w % 2)) && h=$((h + h % 2))
  got=$(ffprobe -v error -select_streams v:0 -count_frames \
        -show_entries stream=codec_name,width,height,nb_read_frames \
        -of csv=p=0 "$1")
  [ "$got" = "h264,$w,$h,$frames" ] \
    || fail "$1: '$got', not 'h264,$w,$h,$frames'"
  checks=$((checks + 1))
}
movie movie.mp4 frame
movie plain.mp4 plain pad
finish

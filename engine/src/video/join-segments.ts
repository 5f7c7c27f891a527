import { writeFile } from 'node:fs/promises';
import { startFfmpeg } from './child-process';

/** Audio codecs copied into the MP4 as they are; any other is re-encoded to AAC. */
const MP4_AUDIO_CODECS = ['aac', 'mp3', 'ac3', 'eac3', 'alac'];

export interface JoinOptions {
  /** The chunks' H.264 MP4s, in order (same size and frame rate, each starting on a keyframe). */
  segments: string[];
  /** A scratch file for the list of segments ffmpeg reads. */
  list: string;
  /** The MP4 to write (replaced if it exists). */
  output: string;
  /** Where to take the first audio stream from, and its codec; null writes a silent video. */
  audio: { file: string; codec: string } | null;
}

/**
 * Joins the chunks' segments into one MP4 without re-encoding the pictures (ffmpeg's concat
 * demuxer, stream copy), adds the audio (copied when MP4 can hold it, else AAC at 160 kb/s), and
 * puts the index at the front (`+faststart`, so playback can start before the download ends).
 */
export async function joinSegments(options: JoinOptions): Promise<void> {
  const { audio } = options;
  // The concat list quotes each path; a quote inside one is written as '\''.
  await writeFile(options.list, options.segments.map((file) => `file '${file.replaceAll("'", "'\\''")}'\n`).join(''));
  const ffmpeg = startFfmpeg(
    [
      '-f', 'concat',
      '-safe', '0',
      '-i', options.list,
      ...(audio ? ['-i', audio.file, '-map', '0:v:0', '-map', '1:a:0'] : ['-map', '0:v:0']),
      '-c:v', 'copy',
      ...(audio ? (MP4_AUDIO_CODECS.includes(audio.codec) ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '160k']) : []),
      '-movflags', '+faststart',
      '-f', 'mp4',
      '-y', options.output,
    ],
    'ignore',
  );
  const code = await ffmpeg.exited;
  if (code !== 0) throw new Error(`cannot join the video's parts: ${ffmpeg.log() || `ffmpeg exited with ${code}`}`);
}

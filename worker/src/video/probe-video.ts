import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EngineError } from '../faces/engine-error';
import { ffprobePath, requireFfmpeg } from './ffmpeg';

const run = promisify(execFile);

/** What the engine needs to know about a video before touching its frames. */
export interface VideoInfo {
  /** Displayed size: a rotation tag is applied, as ffmpeg's decoder applies it. */
  width: number;
  height: number;
  /** Frames per second the output is written at (the stream's average rate). */
  fps: number;
  /** The same rate as ffmpeg writes it (e.g. 30000/1001), passed back to ffmpeg exactly. */
  frameRate: string;
  durationSeconds: number;
  /** Frames in the stream (counted by the container, else duration times rate): for progress. */
  frames: number;
  /** Codec of the first audio stream, or null without audio. */
  audioCodec: string | null;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  nb_frames?: string;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

const rate = (value: string | undefined): number => {
  const [num, den] = (value ?? '').split('/').map(Number);
  return num && den ? num / den : 0;
};

/** Reads a video file's streams with ffprobe; refuses a file without a decodable video stream. */
export async function probeVideo(file: string): Promise<VideoInfo> {
  await requireFfmpeg();
  let parsed: { streams?: ProbeStream[]; format?: { duration?: string } };
  try {
    const { stdout } = await run(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
      timeout: 30_000,
      maxBuffer: 4 * 1024 * 1024,
    });
    parsed = JSON.parse(stdout) as typeof parsed;
  } catch (error) {
    throw new EngineError('undecodable_input', 'cannot read the video: not a video file ffmpeg understands', { cause: error });
  }
  const streams = parsed.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.width && s.height);
  if (!video) throw new EngineError('undecodable_input', 'cannot read the video: it has no video stream');
  const frameRate = rate(video.avg_frame_rate) ? video.avg_frame_rate! : (video.r_frame_rate ?? '');
  const fps = rate(frameRate);
  // The video stream's own duration: an audio track may run longer than the pictures.
  const durationSeconds = Number(video.duration) || Number(parsed.format?.duration) || 0;
  if (!(fps > 0) || !(durationSeconds > 0)) throw new EngineError('undecodable_input', 'cannot read the video: unknown frame rate or duration');
  const rotation = Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0);
  const turned = Math.abs(rotation) % 180 === 90;
  const audio = streams.find((s) => s.codec_type === 'audio');
  return {
    width: turned ? video.height! : video.width!,
    height: turned ? video.width! : video.height!,
    fps,
    frameRate,
    durationSeconds,
    frames: Number(video.nb_frames) || Math.max(1, Math.round(durationSeconds * fps)),
    audioCodec: audio?.codec_name ?? null,
  };
}

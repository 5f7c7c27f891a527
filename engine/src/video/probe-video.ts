import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
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
  /**
   * How long the pictures play, measured from the packets' own timestamps. A container's
   * duration field is written by whoever made the file and may say anything.
   */
  durationSeconds: number;
  /** Video packets in the stream, counted (at most `maxPackets`, see `ProbeVideoOptions`). */
  frames: number;
  /** True when counting stopped at `maxPackets`: the stream has more, and plays at least this long. */
  truncated: boolean;
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
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

const rate = (value: string | undefined): number => {
  const [num, den] = (value ?? '').split('/').map(Number);
  return num && den ? num / den : 0;
};

export interface ProbeVideoOptions {
  /** Stop counting packets past this many (a cap's frame budget): the file is too long anyway. */
  maxPackets?: number;
}

/** Enough for any clip the default caps admit (120 s at 60 fps) and a margin to refuse it by. */
const DEFAULT_MAX_PACKETS = 20_000;
const PACKET_SCAN_TIMEOUT_MS = 30_000;

interface PacketSpan {
  packets: number;
  /** The first timestamp, in seconds (Infinity when no packet has one). */
  first: number;
  /** The latest end of a packet with a duration, and the latest start of one without (-Infinity when none). */
  timedEnd: number;
  untimedStart: number;
  truncated: boolean;
}

/** First timestamp to the end of the last packet, in seconds, a packet without a duration lasting `packetSeconds`; 0 when no packet has a time. */
function spanSeconds({ first, timedEnd, untimedStart }: PacketSpan, packetSeconds: number): number {
  const end = Math.max(timedEnd, untimedStart + packetSeconds);
  return end > first ? end - first : 0;
}

/**
 * Demuxes the first video stream (no decoding) and counts its packets and the time they span.
 * Reading stops, and ffprobe is killed, once `maxPackets` are counted.
 */
async function measurePackets(file: string, maxPackets: number): Promise<PacketSpan> {
  const child = spawn(ffprobePath(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', file], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', () => resolve());
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, PACKET_SCAN_TIMEOUT_MS);
  let packets = 0;
  let first = Infinity;
  let timedEnd = -Infinity;
  let untimedStart = -Infinity;
  let truncated = false;
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      const [pts, duration] = line.split(',').map(Number);
      packets++;
      if (Number.isFinite(pts)) {
        first = Math.min(first, pts!);
        if (duration! > 0) timedEnd = Math.max(timedEnd, pts! + duration!);
        else untimedStart = Math.max(untimedStart, pts!);
      }
      if (packets >= maxPackets) {
        truncated = true;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  await exited;
  if (timedOut) throw new Error(`counting the packets took over ${PACKET_SCAN_TIMEOUT_MS / 1000} s`);
  return { packets, first, timedEnd, untimedStart, truncated };
}

/**
 * Reads a video file's streams with ffprobe; refuses a file without a decodable video stream.
 * Duration and frame count come from the packets themselves, not from the container's header.
 */
export async function probeVideo(file: string, options: ProbeVideoOptions = {}): Promise<VideoInfo> {
  // The check that ffmpeg runs (binaries only until each has run once), the streams and the
  // packets are read at once (each read starts ffprobe, 70-90 ms: one after another they held up
  // every video swap by about half a second); their failures are reported in this order.
  const [available, streamsRead, packetsRead] = await Promise.allSettled([
    requireFfmpeg(),
    run(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_streams', file], { timeout: 30_000, maxBuffer: 4 * 1024 * 1024 }),
    measurePackets(file, options.maxPackets ?? DEFAULT_MAX_PACKETS),
  ]);
  if (available.status === 'rejected') throw available.reason;
  let parsed: { streams?: ProbeStream[] };
  try {
    if (streamsRead.status === 'rejected') throw streamsRead.reason;
    parsed = JSON.parse(streamsRead.value.stdout) as typeof parsed;
  } catch (error) {
    throw new EngineError('undecodable_input', 'cannot read the video: not a video file ffmpeg understands', { cause: error });
  }
  const streams = parsed.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.width && s.height);
  if (!video) throw new EngineError('undecodable_input', 'cannot read the video: it has no video stream');
  const frameRate = rate(video.avg_frame_rate) ? video.avg_frame_rate! : (video.r_frame_rate ?? '');
  const fps = rate(frameRate);
  if (!(fps > 0)) throw new EngineError('undecodable_input', 'cannot read the video: unknown frame rate');
  // The video stream's packets: an audio track may run longer than the pictures.
  if (packetsRead.status === 'rejected') {
    throw new EngineError('undecodable_input', 'cannot read the video: its packets cannot be read', { cause: packetsRead.reason });
  }
  const span = packetsRead.value;
  const seconds = spanSeconds(span, 1 / fps);
  if (span.packets === 0 || !(seconds > 0)) throw new EngineError('undecodable_input', 'cannot read the video: it has no timed video frames');
  const rotation = Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0);
  const turned = Math.abs(rotation) % 180 === 90;
  const audio = streams.find((s) => s.codec_type === 'audio');
  return {
    width: turned ? video.height! : video.width!,
    height: turned ? video.width! : video.height!,
    fps,
    frameRate,
    durationSeconds: seconds,
    frames: span.packets,
    truncated: span.truncated,
    audioCodec: audio?.codec_name ?? null,
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import type { Readable } from 'node:stream';
import { EncoderPool } from './ffmpeg-encoder.js';

/** Debian's (and most distributions') Xvfb; `XVFB_PATH` names another. */
export const DEFAULT_XVFB_PATH = '/usr/bin/Xvfb';

/** The Xvfb binary to use, or undefined when there is none (the `x11grab` capture then falls back). */
export function findXvfb(path = process.env['XVFB_PATH'] || DEFAULT_XVFB_PATH): string | undefined {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return undefined;
  }
}

export interface VirtualDisplayOptions {
  /** Screen size: the browser's viewport (its window is made fullscreen on it). */
  width: number;
  height: number;
  /** Default: findXvfb(). */
  xvfbPath?: string;
}

/**
 * One X server in memory (Xvfb) for one headful browser: what its window shows is what ffmpeg's
 * `x11grab` captures (see VideoRecorder's `x11grab` source). One display per browser, and one job at
 * a time in that browser: x11grab sees only the window on top.
 *
 * Xvfb picks a free display number itself (`-displayfd`), so several workers on one machine never
 * race for one. It listens on its Unix socket only (no TCP); the job's pages never reach it (they run
 * in Chromium's renderers, which have no X connection).
 */
export class VirtualDisplay {
  private closed = false;
  /**
   * The display's grabbers started ahead of need: ffmpeg linked, started and waiting to open the
   * display, so a recording's first frame is grabbed within a frame or so of its start.
   */
  readonly grabbers = new EncoderPool();

  private constructor(
    private readonly child: ChildProcess,
    /** The X display name, e.g. `:99`. */
    readonly name: string,
    readonly width: number,
    readonly height: number,
  ) {
    child.once('exit', () => {
      this.closed = true;
    });
  }

  /** Starts Xvfb and resolves once it accepts clients (it writes its display number then). */
  static async start(options: VirtualDisplayOptions): Promise<VirtualDisplay> {
    const xvfb = options.xvfbPath ?? findXvfb();
    if (!xvfb) throw new Error(`no Xvfb at ${process.env['XVFB_PATH'] || DEFAULT_XVFB_PATH}`);
    const { width, height } = options;
    // fd 3 receives the display number once the server is ready.
    const child = spawn(
      xvfb,
      ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], detached: false },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const number = await new Promise<string>((resolve, reject) => {
      let text = '';
      (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(text.trim());
      });
      child.once('error', (error) => reject(new Error(`could not run ${xvfb}: ${error.message}`)));
      child.once('exit', (code, signal) =>
        reject(new Error(`Xvfb exited (${code ?? signal}) before it was ready: ${stderr.trim()}`)),
      );
    });
    return new VirtualDisplay(child, `:${number}`, width, height);
  }

  /** Xvfb's process id (the bench counts its CPU). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the server is still running. */
  get alive(): boolean {
    return !this.closed && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Stops the server (its browser should be closed first). */
  async close(): Promise<void> {
    this.grabbers.close();
    if (!this.alive) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2_000);
    await exited;
    clearTimeout(timer);
  }
}

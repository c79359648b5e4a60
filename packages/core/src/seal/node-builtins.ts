/**
 * The Node built-ins that sealed stores need (crypto, zlib, fs), taken through
 * `process.getBuiltinModule` when first asked for, never imported statically: core's entry points
 * load in a browser or an edge runtime as they always did, and only a store opened with keys (or
 * a key file read) needs Node (or Deno, Bun). Only the members used here are typed.
 */
import { CheckpointError } from '../errors.js';

/** The part of `node:crypto` that sealing uses. */
export interface NodeCrypto {
  createCipheriv(algorithm: 'aes-256-gcm', key: Uint8Array, iv: Uint8Array): GcmCipher;
  createDecipheriv(algorithm: 'aes-256-gcm', key: Uint8Array, iv: Uint8Array): GcmDecipher;
  createHmac(algorithm: 'sha256', key: Uint8Array): { update(data: Uint8Array | string): { digest(): Uint8Array } };
  hkdfSync(digest: 'sha256', ikm: Uint8Array, salt: Uint8Array, info: string, length: number): ArrayBuffer;
  randomFillSync<T extends Uint8Array>(buffer: T): T;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
  hash?(algorithm: 'sha256', data: Uint8Array | string, encoding: 'hex'): string;
}

export interface GcmCipher {
  setAAD(aad: Uint8Array): unknown;
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
  getAuthTag(): Uint8Array;
}

export interface GcmDecipher {
  setAAD(aad: Uint8Array): unknown;
  setAuthTag(tag: Uint8Array): unknown;
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
}

/** The part of `node:zlib` used to compress payloads before they are encrypted. */
export interface NodeZlib {
  deflateRawSync(data: Uint8Array, options: { level: number; windowBits?: number; memLevel?: number; chunkSize?: number }): Uint8Array;
  inflateRawSync(data: Uint8Array, options: { maxOutputLength: number; chunkSize?: number }): Uint8Array;
}

/** The part of `node:fs` used for key files. */
export interface NodeFs {
  openSync(path: string, flags: number, mode?: number): number;
  fstatSync(fd: number): { mode: number; size: number; isFile(): boolean };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  writeSync(fd: number, buffer: Uint8Array): number;
  fchmodSync(fd: number, mode: number): void;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  unlinkSync(path: string): void;
  constants: { O_RDONLY: number; O_WRONLY: number; O_CREAT: number; O_EXCL: number; O_NOFOLLOW?: number };
}

/** The text encodings of bytes used here. */
type ByteEncoding = 'base64' | 'base64url' | 'utf8';

/** The part of `node:buffer` used to move bytes to and from base64. */
interface NodeBufferModule {
  Buffer: {
    from(data: Uint8Array | ArrayBuffer): Uint8Array & { toString(encoding: ByteEncoding): string };
    from(text: string, encoding: ByteEncoding): Uint8Array & { toString(encoding: ByteEncoding): string };
    concat(list: readonly Uint8Array[]): Uint8Array & { toString(encoding: ByteEncoding): string };
  };
}

const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;

function load<T>(id: string): T {
  const module = builtin?.(id) as T | undefined;
  if (module === undefined) {
    throw new CheckpointError(`sealed stores and key files need ${id} (Node.js 20.16 or later, Deno or Bun); it is not available in this runtime`);
  }
  return module;
}

let crypto: NodeCrypto | undefined;
let zlib: NodeZlib | undefined;
let fs: NodeFs | undefined;
let buffer: NodeBufferModule['Buffer'] | undefined;

/** `node:crypto`, or a CheckpointError when the runtime has none. */
export const nodeCrypto = (): NodeCrypto => (crypto ??= load<NodeCrypto>('node:crypto'));
/** `node:zlib`, or a CheckpointError when the runtime has none. */
export const nodeZlib = (): NodeZlib => (zlib ??= load<NodeZlib>('node:zlib'));
/** `node:fs`, or a CheckpointError when the runtime has none. */
export const nodeFs = (): NodeFs => (fs ??= load<NodeFs>('node:fs'));
/** Node's `Buffer`, for base64 and UTF-8 (native, and much faster than `btoa`). */
export const nodeBuffer = (): NodeBufferModule['Buffer'] => (buffer ??= load<NodeBufferModule>('node:buffer').Buffer);

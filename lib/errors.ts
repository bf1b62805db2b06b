/** Errors with stable codes. */

/** Thrown by an adapter to decline a callback with its own texts (they are sent to the service as-is). */
export class CallbackError extends Error {
  readonly description?: string;
  readonly errorCode?: string;
  readonly status: number;
  constructor(message: string, options: { description?: string; errorCode?: string; status?: number } = {}) {
    super(message);
    this.name = 'CallbackError';
    this.description = options.description;
    this.errorCode = options.errorCode;
    const s = options.status;
    this.status = typeof s === 'number' && Number.isInteger(s) && s >= 400 && s <= 599 ? s : 400;
  }
}

export const KIT_ERROR_CODES = {
  ERR_CBK_OPTION_UNKNOWN: 'An option name is not one the kit knows (often a typo; the message suggests the closest name).',
  ERR_CBK_OPTION_REQUIRED: 'A required option is missing.',
  ERR_CBK_OPTION_INVALID: 'An option has a value of the wrong type or out of range.',
  ERR_CBK_UNKNOWN_SCHEMA: 'validatePayload was given a type name that has no schema (see docs/schemas.md for the names).',
} as const;
export type KitErrorCode = keyof typeof KIT_ERROR_CODES | (string & {});

/** A configuration or usage error raised by the kit itself, with a stable `code` and a `help` text. */
export class KitError extends Error {
  readonly code: KitErrorCode;
  readonly help?: string;
  constructor(code: KitErrorCode, message: string) {
    super(`${message} [${code}]`);
    this.name = 'KitError';
    this.code = code;
    this.help = (KIT_ERROR_CODES as Record<string, string>)[code];
  }
}

/** Internal: a failure the pipeline turns into a ResponseInfo with `Success: false`. */
export class PipelineFailure extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly publicMessage: string,
    readonly logReason: string,
    readonly description?: string,
    readonly extraHeaders?: Record<string, string>,
  ) {
    super(logReason);
    this.name = 'PipelineFailure';
  }
}

/** The one refusal of a body over a callback's size limit (413, connection closed), for the core and the bindings. */
import { PipelineFailure } from '../shared/errors.js';

export function payloadTooLarge(limit: number): PipelineFailure {
  return new PipelineFailure('PAYLOAD_TOO_LARGE', `body exceeds the limit of ${limit} bytes`,
    `The request body exceeds the limit of ${limit} bytes`, { connection: 'close' });
}

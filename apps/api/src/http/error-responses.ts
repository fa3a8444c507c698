import { errorBodySchema } from '@portal/contract';
import { ERROR_CODES, STATUS_OF_CODE, type ErrorCode } from '@portal/contract/error-codes';

type ErrorStatus = (typeof STATUS_OF_CODE)[ErrorCode];

/**
 * Response schemas for the `{ message, code }` errors any route may answer with: one per status of the
 * contract's code table, so a code added there is declared on every route at once.
 */
export const errorResponses = Object.fromEntries(
  ERROR_CODES.map((code) => [STATUS_OF_CODE[code], errorBodySchema]),
) as Record<ErrorStatus, typeof errorBodySchema>;

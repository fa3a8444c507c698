/**
 * What every error modal takes (ErrorModal and the two it shows, BootstrapErrorModal and PlainErrorModal): the
 * message (null while closed), the server's request id to quote to support, and what closing calls.
 */
export interface ErrorModalProps {
  message: string | null;
  reference?: string | undefined;
  onClose: () => void;
  /** Runs once it has closed: the place to put focus back when what had it is gone. */
  onExited?: () => void;
}

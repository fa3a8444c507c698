/**
 * What a row of the user list can ask for, each with the control that asked (focus goes back to it when the
 * confirmation closes). The row and its menu take them; `useUserActions` provides them.
 */
export interface UserActions {
  onDelete: (email: string, trigger: HTMLButtonElement) => void;
  onSetAdmin: (email: string, admin: boolean, trigger: HTMLButtonElement) => void;
  onSetFinance: (email: string, finance: boolean, trigger: HTMLButtonElement) => void;
  onEndSessions: (email: string, trigger: HTMLButtonElement) => void;
  onResetPasskeys: (email: string, trigger: HTMLButtonElement) => void;
  onNewEnrollmentCode: (email: string, trigger: HTMLButtonElement) => void;
  onResend: (email: string) => void;
}

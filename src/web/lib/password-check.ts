import { MIN_PASSWORD_LENGTH } from "#course/account-rules";

export interface PasswordProblem {
  title: string;
  description: string;
}

/** Spec section 5's checks for a new password and its confirmation, with the toast each one shows. */
export function checkNewPassword(newPassword: string, confirmation: string): PasswordProblem | null {
  if (newPassword.length < MIN_PASSWORD_LENGTH) {
    return {
      title: "Password Too Short",
      description: `Please use a password with at least ${MIN_PASSWORD_LENGTH} characters.`,
    };
  }
  if (newPassword !== confirmation) {
    return { title: "Passwords Do Not Match", description: "Please ensure both password fields are identical." };
  }
  return null;
}

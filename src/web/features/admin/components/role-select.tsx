import { BookOpen, GraduationCap, type LucideIcon, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { staffName } from "#course/account-rules";
import { isRole, ROLES, type Role } from "#course/roles";
import type { UserSummary } from "#server/modules/users/users.contract";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#web/components/ui/select";
import { useChangeRole } from "#web/features/admin/api/change-role";

const ROLE_ICONS: Record<Role, LucideIcon> = { Student: GraduationCap, Tutor: BookOpen, Admin: ShieldCheck };

/** A role with its icon; a value that is no known role keeps its text and gets the student icon (spec section 6). */
function RoleLabel({ role }: { role: string }) {
  const Icon = isRole(role) ? ROLE_ICONS[role] : GraduationCap;
  return (
    <>
      <Icon aria-hidden="true" />
      {role}
    </>
  );
}

/**
 * One user's role, changed in place. While the change is being saved the select shows the chosen role and
 * takes no other change; if the server refuses it (the last admin, say), it shows the role the user still has.
 * It is marked aria-disabled rather than disabled, so keyboard focus stays on it through the save.
 */
export function RoleSelect({ user }: { user: UserSummary }) {
  const changeRole = useChangeRole();
  const [open, setOpen] = useState(false);
  const saving = changeRole.isPending;
  const shown = saving ? changeRole.variables.role : user.role;

  return (
    <Select
      value={shown}
      open={open}
      onOpenChange={(next) => setOpen(next && !saving)}
      onValueChange={(role) => {
        // The closed trigger's typeahead changes the value without opening, so saving is checked here too.
        if (saving || !isRole(role) || role === user.role) return;
        changeRole.mutate({ userId: user.id, role });
      }}
    >
      <SelectTrigger
        aria-label={`Role for ${staffName(user) || user.email}`}
        aria-disabled={saving || undefined}
        aria-busy={saving || undefined}
        className="w-36 aria-disabled:cursor-wait aria-disabled:opacity-60"
      >
        <SelectValue>
          <RoleLabel role={shown} />
        </SelectValue>
      </SelectTrigger>
      <SelectContent>
        {ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            <RoleLabel role={role} />
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

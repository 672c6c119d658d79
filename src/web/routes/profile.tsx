import { Page } from "#web/components/page";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { AvatarUpload } from "#web/features/profile/components/avatar-upload";
import { PasswordForm } from "#web/features/profile/components/password-form";
import { ProfileForm } from "#web/features/profile/components/profile-form";
import { useProfile } from "#web/lib/profile";

export function Component() {
  // The route guard renders this page only once the profile is loaded.
  const { profile } = useProfile();
  return (
    <Page title="Profile" intro="Your picture, your name and your password.">
      {profile && (
        <div className="grid gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Personal information</CardTitle>
              <CardDescription>This is how tutors and the site will address you.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-8">
              <AvatarUpload profile={profile} />
              <ProfileForm key={profile.id} profile={profile} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Update Password</CardTitle>
              <CardDescription>Other devices are signed out when your password changes.</CardDescription>
            </CardHeader>
            <CardContent>
              <PasswordForm />
            </CardContent>
          </Card>
        </div>
      )}
    </Page>
  );
}

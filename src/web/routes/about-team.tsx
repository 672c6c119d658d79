import { Page } from "#web/components/page";
import { publicPageMeta } from "#web/config/page-meta";
import { paths } from "#web/config/paths";
import { CourseVoices } from "#web/features/marketing/course-voices";

const team = [
  {
    name: "Aisyah Rahman",
    role: "Head of Learning",
    image: "/images/team/aisyah.svg",
    bio: "A Malay teacher from Kuala Lumpur with twelve years of classes for newcomers. She designs each day's missions and makes sure every phrase is one Malaysians really say.",
  },
  {
    name: "Daniel Okafor",
    role: "Story Writer",
    image: "/images/team/daniel.svg",
    bio: "Moved to Penang for work, learned Malay at the kopitiam, and never left. He writes Alex's story and the dialogues you hear every day.",
  },
  {
    name: "Mei Ling Tan",
    role: "Tutor Lead",
    image: "/images/team/mei-ling.svg",
    bio: "Leads the tutors who run the live sessions. She reads your progress before each session so the practice starts where you are.",
  },
  {
    name: "Arjun Nair",
    role: "Engineer",
    image: "/images/team/arjun.svg",
    bio: "Builds the app and keeps it fast on a phone with one bar of signal, because that is where most of our learners are.",
  },
] as const;

export function Component() {
  return (
    <Page title={publicPageMeta[paths.aboutTeam].title} intro="The writers, tutors and makers behind the lessons.">
      <ul className="grid gap-6 sm:grid-cols-2">
        {team.map((member) => (
          <li key={member.name} className="flex gap-5 rounded-xl border bg-card p-6 shadow-sm">
            <img
              src={member.image}
              alt={`Illustration of ${member.name}`}
              width={96}
              height={96}
              className="size-24 shrink-0 rounded-full bg-muted"
              loading="lazy"
            />
            <div>
              <h2 className="text-lg font-semibold">{member.name}</h2>
              <p className="text-sm font-medium text-primary">{member.role}</p>
              <p className="mt-2 text-muted-foreground">{member.bio}</p>
            </div>
          </li>
        ))}
      </ul>
      <CourseVoices />
    </Page>
  );
}

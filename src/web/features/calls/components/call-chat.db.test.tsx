import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CallRoom } from "#server/modules/calls/calls.contract";
import { insertBooking, personAs } from "#tests/booked-session";
import { type Instance, serveInstances } from "#tests/room-sockets";
import { connectApp } from "#tests/web/app-in-process";
import { CallChat } from "./call-chat";

const app = await connectApp();
// The room's WebSocket served as main.ts serves it: the other side writes in the chat through it.
const { instances, join } = serveInstances([app.t.app]);
const [instance] = instances as [Instance];

/** "16:05" in the zone, as an independent clock reads the instant. */
const clockIn = (instant: string, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
    new Date(instant),
  );

describe("the room's chat", () => {
  it("shows when each message was sent, in the viewer's zone", async () => {
    const tutor = await personAs(app.t, "Tutor", { firstName: "Siti", lastName: "Aminah" });
    const learner = await app.signInLearner({ firstName: "Alex", lastName: "Tan" });
    await app.send("PATCH", "/api/settings", { timeZone: "America/Los_Angeles" });
    const bookingId = await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt: new Date() });

    const tutorSide = join(instance, bookingId, tutor.cookie);
    await tutorSide.next((message) => message.type === "welcome");
    tutorSide.send({ type: "chat", text: "Selamat pagi! Kita mula?" });
    await tutorSide.next((message) => message.type === "chat");

    const room = await app.read<CallRoom>(`/api/calls/${bookingId}`);
    const [sent] = room.chat;
    expect(sent).toMatchObject({ from: tutor.id, text: "Selamat pagi! Kita mula?" });
    render(
      <CallChat
        messages={room.chat}
        names={{ [tutor.id]: "Siti Aminah", [learner.id]: "Alex Tan" }}
        timeZone={room.timeZone}
        problem={null}
        send={() => undefined}
      />,
    );
    const line = screen.getByRole("listitem");
    expect(line).toHaveTextContent(`${clockIn(sent!.at, "America/Los_Angeles")} Siti Aminah: Selamat pagi! Kita mula?`);
    expect(within(line).getByText(clockIn(sent!.at, "America/Los_Angeles"))).toHaveAttribute("datetime", sent!.at);
    // Not the server's zone nor the tutor's: Los Angeles is 8 hours or more behind UTC.
    expect(clockIn(sent!.at, "America/Los_Angeles")).not.toBe(clockIn(sent!.at, "UTC"));
  });
});

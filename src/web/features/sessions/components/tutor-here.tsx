import type { BookingView } from "#server/modules/bookings/bookings.contract";
import { useRoomPresence } from "#web/lib/room-presence";

/** "Your tutor is here": on the learner's card while the tutor is in the session's room and the learner is not. */
export function TutorHere({ booking }: { booking: BookingView }) {
  const presence = useRoomPresence(booking);
  const here = presence.data?.open && presence.data.tutorHere && !presence.data.learnerHere;
  return (
    <p role="status" className="text-sm font-medium text-primary empty:hidden">
      {here ? `Your tutor is here: ${booking.tutor.name} is waiting in the session room.` : ""}
    </p>
  );
}

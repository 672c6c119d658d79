import { Page } from "#web/components/page";
import { publicPageMeta } from "#web/config/page-meta";
import { paths } from "#web/config/paths";
import { Prose } from "#web/features/marketing/prose";

export function Component() {
  return (
    <Page title={publicPageMeta[paths.aboutMission].title} intro="Malay for the life you will actually live here.">
      <Prose>
        <p>
          Phrasebooks teach you to ask for the train station. Then you land in Kuala Lumpur, walk into a kopitiam, and
          the uncle behind the counter asks “Minum apa?” faster than you can find the page. Our mission is to close that
          gap: to teach Malaysian Malay — the Malay of the kopitiam, the pasar and the LRT — so that your first
          conversations happen in the first week, not the first year.
        </p>
        <h2>Learning that sticks</h2>
        <p>
          We teach through a story because people remember stories. You follow Alex through each day of a first trip to
          Malaysia: every word you learn, Alex needs that day. You hear it in a dialogue, practise it on your own in the
          Codebook, and then use it with a real tutor in a live session.
        </p>
        <h2>Malaysian, not textbook</h2>
        <p>
          We teach the words Malaysians use: “kereta” for car, “tandas” for toilet, “lapan” for eight, and how to order
          your kopi-O kosong without sugar. We explain the forms of address — encik, puan, abang, kakak, mak cik — and
          the small words like “lah” that make you sound friendly rather than formal.
        </p>
        <h2>For everyone on the move</h2>
        <p>
          Our learners are travellers, expats and curious people who love a good story. Most learn on a phone, often on
          a slow connection, so Jalan is built to be light and fast, and everything you need — audio, video and captions
          — comes from our own servers. The Malay you hear in the lessons is spoken by a synthesised voice, so every
          line can be played again and slowed down; the real voices are your tutor's, in the live sessions.
        </p>
      </Prose>
    </Page>
  );
}

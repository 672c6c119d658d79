import { act, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { toast } from "#web/lib/toast";
import { Toaster } from "./toaster";

describe("toaster", () => {
  it("shows one toast at a time, errors in the destructive style", () => {
    render(<Toaster />);
    act(() => toast({ title: "Profile Updated!", description: "Your information has been saved successfully." }));
    expect(screen.getByText("Profile Updated!")).toBeInTheDocument();

    act(() => toast({ title: "Update Failed", description: "Could not update your profile.", variant: "destructive" }));
    expect(screen.queryByText("Profile Updated!")).not.toBeInTheDocument();
    expect(screen.getByText("Update Failed").closest("li")).toHaveClass("bg-destructive");
  });

  it("lets a keyboard user reach the toasts with F8", () => {
    render(<Toaster />);
    expect(screen.getByRole("region", { name: "Notifications (F8)" })).toBeInTheDocument();
  });
});

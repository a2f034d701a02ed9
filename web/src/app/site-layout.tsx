import { Outlet } from "react-router";
import { Header } from "../components/layout/header";
import { Footer } from "../components/layout/footer";

/** Pages with the shared header and footer (every route but home). */
export function SiteLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

import { LogoMark } from "../../components/layout/logo-mark";
import { logoLinkClass } from "../../components/layout/logo-class";
import { AnalyzeFormView } from "./analyze-form-view";
import { HomeHero } from "./home-hero";
import { StatsView } from "./stats-view";
import { earlyInput } from "./early-input";

/**
 * The home hero as it looks before the app has loaded: painted by main.tsx from the entry chunk
 * (React and this markup only), then replaced by the live page. No router, no query cache, no
 * domain wasm: those arrive with the app. Its address field is read-only until then.
 */
export function HomeShell() {
  return (
    <div className="min-h-dvh">
      <main id="main">
        <HomeHero
          logo={
            <a href="/" className={logoLinkClass} aria-label="Sitelens home">
              <LogoMark inverted />
            </a>
          }
          link={(to, className, label) => (
            <a href={to} className={className}>
              {label}
            </a>
          )}
          themeToggle={<span className="inline-block size-10" aria-hidden="true" />}
          form={
            <AnalyzeFormView
              inputId="early-url"
              value=""
              readOnly
              onChange={() => undefined}
              onSubmit={(e) => e.preventDefault()}
              onFocusChange={(f) => {
                earlyInput.focused = f;
              }}
            />
          }
          counter={<StatsView state="loading" />}
        />
      </main>
    </div>
  );
}

import assert from "node:assert/strict";
import { PageTemplateError, parsePageTemplate } from "../../../runtime/http/page-template.js";

const render = (text: string, scope: Record<string, unknown>) =>
  parsePageTemplate(text, "t.html").render(scope as never);

describe("page template (start page markup)", () => {
  it("inserts text escaped, and raw only where the slot says so", () => {
    assert.equal(
      render(`<p title="{{a}}">{{a}}</p><script>{{{json}}}</script>`, {
        a: `<b>"&'`,
        json: `{"x":"\\u003c"}`,
      }),
      `<p title="&#60;b&#62;&#34;&#38;&#39;">&#60;b&#62;&#34;&#38;&#39;</p><script>{"x":"\\u003c"}</script>`,
    );
  });

  it("never reads an inserted value as a slot", () => {
    assert.equal(render("{{a}}|{{{a}}}", { a: "{{b}}", b: "no" }), "{{b}}|{{b}}");
  });

  it("keeps a section when truthy, an inverted one when not, and repeats one per list item", () => {
    const text =
      "{{#on}}[{{t.x}}]{{/on}}{{^on}}off{{/on}}:{{#items}}<{{code}}{{#current}}*{{/current}}>{{/items}}";
    const items = [{ code: "en", current: true }, { code: "de" }];
    assert.equal(render(text, { on: true, t: { x: "X" }, items }), "[X]:<en*><de>");
    assert.equal(render(text, { on: "", t: { x: "X" }, items: [] }), "off:");
  });

  it("refuses a template that does not parse and a slot without a text value", () => {
    assert.throws(() => parsePageTemplate("{{#a}}", "t.html"), PageTemplateError);
    assert.throws(() => parsePageTemplate("{{#a}}{{/b}}", "t.html"), /closes no open/);
    assert.throws(() => parsePageTemplate("{{/a}}", "t.html"), PageTemplateError);
    assert.throws(() => render("{{missing}}", {}), /t\.html: \{\{missing\}\} has no text value/);
    assert.throws(() => render("{{t}}", { t: { x: "X" } }), PageTemplateError);
  });
});

#include "viz/window_app.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdint>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define CHAINTWIN_LEAK_CHECK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHAINTWIN_LEAK_CHECK 1
#endif
#endif
#ifdef CHAINTWIN_LEAK_CHECK
#include <sanitizer/lsan_interface.h>
#endif

#include "viz/dashboard.h"
#include "viz/plot_textures.h"
#include "viz/png_capture.h"
#include "viz/state_palette.h"

namespace chaintwin::viz {
namespace {

void apply_style() {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  const Rgba bg = background_colour();
  style.Colors[ImGuiCol_WindowBg] = ImVec4(bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f);
  style.WindowRounding = 0;
  style.FrameRounding = 3;
  style.CellPadding = ImVec2(5, 3);
}

// The GLFW session: initialised once per run_window, torn down on every path out.
struct GlfwSession {
  GLFWwindow* window = nullptr;
  bool imgui = false;
  ~GlfwSession() {
    if (imgui) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplGlfw_Shutdown();
      ImGui::DestroyContext();
    }
    if (window != nullptr) glfwDestroyWindow(window);
    check_leaks_while_the_driver_is_loaded();
    glfwTerminate();
  }

  // Under AddressSanitizer: glfwTerminate unloads the OpenGL driver (Mesa's, under Xvfb), and the
  // few blocks the driver keeps in its own globals would then be reported at exit as leaks of an
  // "<unknown module>" that no suppression can name. So the one leak check runs here, after every
  // object of ours is gone and while the driver is still mapped; LeakSanitizer does not run again
  // at exit. Without a sanitizer this does nothing.
  static void check_leaks_while_the_driver_is_loaded() {
#ifdef CHAINTWIN_LEAK_CHECK
    __lsan_do_leak_check();
#endif
  }
};

// A plan's plots as OpenGL textures: each uploaded on first use and kept while the same PlanView is
// shown; all deleted when another view comes or the window closes (while its context is current).
class GlPlotTextures final : public PlotTextures {
 public:
  ~GlPlotTextures() override { release(); }

  ImTextureID texture(const std::shared_ptr<const PlanView>& view, size_t index) override {
    if (view != view_) {
      release();
      view_ = view;
      ids_.assign(view_ != nullptr ? view_->plots.size() : 0, 0);
    }
    if (view_ == nullptr || index >= ids_.size()) return nullptr;
    const PlanPlot& plot = view_->plots[index];
    if (plot.width <= 0 || plot.height <= 0 ||
        plot.rgba.size() != static_cast<size_t>(plot.width) * static_cast<size_t>(plot.height) * 4)
      return nullptr;
    if (ids_[index] == 0) {
      while (glGetError() != GL_NO_ERROR) {
      }  // an error left by someone else is not this upload's
      GLint previous = 0;
      glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
      GLuint id = 0;
      glGenTextures(1, &id);
      glBindTexture(GL_TEXTURE_2D, id);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, plot.width, plot.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, plot.rgba.data());
      glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
      if (glGetError() != GL_NO_ERROR) {
        glDeleteTextures(1, &id);
        return nullptr;
      }
      ids_[index] = id;
    }
    return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(ids_[index]));
  }

 private:
  void release() {
    for (GLuint& id : ids_)
      if (id != 0) glDeleteTextures(1, &id);
    ids_.clear();
    view_.reset();
  }

  std::shared_ptr<const PlanView> view_;
  std::vector<GLuint> ids_;
};

}  // namespace

model::Status run_window(const SnapshotSource& source, CommandSink& commands, const WindowOptions& options) {
  if (glfwInit() == GLFW_FALSE)
    return model::err("cannot open a window: GLFW found no display (set DISPLAY, or run under xvfb-run -a)");
  GlfwSession session;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_RESIZABLE, options.screenshot ? GLFW_FALSE : GLFW_TRUE);
  session.window = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (session.window == nullptr) return model::err("cannot open a window: no OpenGL 3.3 core context on this display");
  glfwMakeContextCurrent(session.window);
  glfwSwapInterval(options.screenshot ? 0 : 1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left behind
  apply_style();
  ImGui_ImplGlfw_InitForOpenGL(session.window, true);
  ImGui_ImplOpenGL3_Init("#version 330");
  session.imgui = true;

  GlPlotTextures plot_textures;  // declared after the session: its textures go before the context
  UiState ui;
  ui.plot_textures = &plot_textures;
  if (options.panel) {
    ui.panel = *options.panel;
    ui.panel_forced = true;
  }
  ui.selected_queue = options.select_queue;
  ui.selected_node = options.select_node;
  ui.selected_workload = options.select_workload;
  const Rgba bg = background_colour();
  int drawn = 0;  // frames drawn with a snapshot: a screenshot waits for a few of them
  while (!glfwWindowShouldClose(session.window)) {
    glfwPollEvents();
    const std::shared_ptr<const Snapshot> snapshot = source.latest();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(session.window, &fb_w, &fb_h);
    if (options.screenshot && options.panel) {
      ui.panel = *options.panel;  // a tab bar's first frame opens its first tab, whatever is forced
      ui.panel_forced = true;
    }
    draw_dashboard(snapshot.get(), ui, commands, ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y);
    ImGui::Render();
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    // A screenshot of a preselected Workload waits for the snapshot that explains it.
    const bool explained = options.select_workload.empty() ||
                           (snapshot != nullptr && (snapshot->explanation || !snapshot->explanation_note.empty()));
    if (snapshot != nullptr && explained) ++drawn;
    // A screenshot waits for its first snapshot at most a minute (a live cluster that never lists).
    if (options.screenshot && drawn == 0 && glfwGetTime() > 60.0)
      return model::err("no snapshot to draw after 60 s; nothing written");
    if (options.screenshot && drawn >= options.screenshot_frames) {
      glFinish();
      return capture_png(*options.screenshot, fb_w, fb_h);
    }
    glfwSwapBuffers(session.window);
  }
  return model::Ok{};
}

}  // namespace chaintwin::viz
